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
  // Output file tracing lists the files each route needs, for a standalone copy of the app.
  // Forage runs from its checkout (`npm start`), so the lists are never used; the folders below
  // hold run-time data, tests and notes, never server code, and are left out of every list.
  outputFileTracingExcludes: { "*": ["data/**", "test/**", "test-results/**", "docs/**"] },
  turbopack: {
    // lib/store/migrations.ts reads the migrations folder at run time (a path from the database
    // dialect, under the project root found when it starts): the tracer cannot scope it and
    // warns that the whole project is traced, four times, ~150 lines on every build. Tracing
    // output is unused (above), so that warning says nothing here; any other warning still shows.
    ignoreIssue: [{ path: /lib\/store\/migrations\.ts$/, title: /^Dynamic filesystem access causes tracing of the whole project/ }],
  },
  poweredByHeader: false,
  devIndicators: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
