// The dashboard process: Next.js's request handler (the built app in .next) behind Forage's own
// HTTP server (lib/server/dashboard-server.ts), which sets the client's address from the socket
// and holds sign-in floods before Next.js parses a byte. `next start` cannot do either: it keeps
// an X-Forwarded-For the client sent. Started by `npm start` (scripts/start.mjs) and the tests;
// listens on FORAGE_HOST:FORAGE_PORT like `next start -H … -p …` did.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.NODE_ENV = "production";

const { loadConfig, ConfigError } = await tsImport("../lib/config.ts", import.meta.url);
const { createDashboardServer } = await tsImport("../lib/server/dashboard-server.ts", import.meta.url);
const { loggerFor } = await tsImport("../lib/log/logger.ts", import.meta.url);

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`[forage] ${error.message}\n`);
  process.exit(1);
}

// The operator log (lib/log): one line per request, FORAGE_LOG_LEVEL and FORAGE_LOG_FORMAT.
const log = loggerFor(config, "forage-dashboard");

const { default: next } = await import("next");
const app = next({ dev: false, dir: ROOT, hostname: config.host, port: config.port });
await app.prepare();
const dashboard = createDashboardServer({ trustedProxies: config.trustedProxies, handle: app.getRequestHandler(), log });

dashboard.server.on("error", (error) => {
  process.stderr.write(`[forage] The dashboard cannot listen on ${config.host}:${config.port}: ${error.message}\n`);
  process.exit(1);
});
dashboard.server.listen(config.port, config.host, () => {
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`;
  log.info({ url, publicOrigin: config.publicOrigin }, `dashboard listening on ${url}`);
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  log.info("dashboard stopping");
  dashboard.close(5_000).then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
