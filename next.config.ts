import type { NextConfig } from "next";

/**
 * Security headers on every answer: no framing (clickjacking), a Content-Security-Policy that
 * lets the app's pages load only their own scripts, styles and API, no MIME sniffing, and no
 * crawl URLs leaking to other sites through Referer. Next.js inlines its bootstrap scripts, hence
 * 'unsafe-inline' for scripts (the development server also needs 'unsafe-eval').
 */
const scriptSources = process.env.NODE_ENV === "development" ? "'self' 'unsafe-inline' 'unsafe-eval'" : "'self' 'unsafe-inline'";
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src ${scriptSources}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
];

const nextConfig: NextConfig = {
  // Native addons are loaded by Node at run time, never bundled.
  serverExternalPackages: ["hnswlib-node", "better-sqlite3", "@node-rs/argon2"],
  poweredByHeader: false,
  devIndicators: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
