import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native addons are loaded by Node at run time, never bundled.
  serverExternalPackages: ["hnswlib-node", "better-sqlite3"],
  poweredByHeader: false,
  devIndicators: false,
};

export default nextConfig;
