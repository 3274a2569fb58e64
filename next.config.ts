import type { NextConfig } from "next";

/**
 * Security headers on every answer: no framing (clickjacking), no MIME sniffing, and no crawl
 * URLs leaking to other sites through Referer. The Content-Security-Policy is not here: it
 * differs between pages (a nonce per request) and API answers (downloads' sandbox), and a header
 * set here overwrites the one a route sets, so proxy.ts sets it per request.
 */
const securityHeaders = [
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
