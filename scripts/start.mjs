// `npm start`: install if needed, migrate, build, then run the dashboard, a crawl worker and
// the demo website side by side. Ctrl-C (or SIGTERM) stops all three cleanly.
import { spawn, spawnSync } from "node:child_process";
import { ensureDependencies, ensureNextBuild, ensurePrismaClient, log, ROOT, run } from "./setup.mjs";

ensureDependencies();
ensurePrismaClient();
run(process.execPath, ["bin/forage.mjs", "migrate"]);
ensureNextBuild();
// While nobody has an account, a one-time link that creates the first admin; printed last, below
// the dashboard's address, so that the services' own start-up lines do not push it out of sight.
const setupLink = spawnSync(process.execPath, ["bin/forage.mjs", "setup-link"], { cwd: ROOT, encoding: "utf8" });
if (setupLink.status !== 0) {
  process.stderr.write(setupLink.stderr);
  process.exit(1);
}

const port = process.env.FORAGE_PORT || "3000";
const host = process.env.FORAGE_HOST || "127.0.0.1";
// The demo site listens on this machine: crawls may reach its address (the one-click demo crawl
// uses 127.0.0.1), on top of whatever FORAGE_PRIVATE_NETWORKS already allows. The policy is by
// address, so other services listening on it become reachable to crawls too.
const demoAddresses = ["127.0.0.1/32", ...(/^[\d.]+$/.test(host) && host !== "0.0.0.0" && host !== "127.0.0.1" ? [`${host}/32`] : [])];
const privateNetworks = [process.env.FORAGE_PRIVATE_NETWORKS, ...demoAddresses].filter(Boolean).join(",");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1", FORAGE_PRIVATE_NETWORKS: privateNetworks, FORAGE_HOST: host, FORAGE_PORT: port };

const children = [
  // Forage's own server around Next.js (scripts/dashboard.mjs): it listens on FORAGE_HOST:FORAGE_PORT.
  { name: "dashboard", args: ["scripts/dashboard.mjs"] },
  { name: "worker", args: ["bin/forage.mjs", "worker"] },
  { name: "demo site", args: ["bin/forage.mjs", "demo"] },
].map(({ name, args }) => ({ name, process: spawn(process.execPath, args, { cwd: ROOT, env, stdio: "inherit" }) }));

let stopping = false;
function stopAll(exitCode) {
  if (stopping) return;
  stopping = true;
  log("Stopping…");
  for (const child of children) if (child.process.exitCode === null) child.process.kill("SIGTERM");
  // A child that ignores SIGTERM for 15 s is killed: Ctrl-C must always end `npm start`.
  const killTimer = setTimeout(() => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill("SIGKILL");
  }, 15_000);
  killTimer.unref();
  Promise.all(children.map((child) => new Promise((resolve) => (child.process.exitCode !== null ? resolve() : child.process.on("exit", resolve))))).then(
    () => process.exit(exitCode),
  );
}

for (const child of children) {
  child.process.on("exit", (code, signal) => {
    if (!stopping) {
      log(`The ${child.name} stopped unexpectedly (${signal ?? `exit ${code}`}); stopping everything.`);
      stopAll(1);
    }
  });
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

log(`Dashboard: http://${host}:${port}   (Ctrl-C stops Forage)`);
// Once the dashboard answers (the services have printed their start-up lines by then).
if (setupLink.stdout) {
  const printWhenUp = async () => {
    for (let attempt = 0; attempt < 240 && !stopping; attempt++) {
      const answered = await fetch(`http://${host}:${port}/sign-in`).then(() => true, () => false);
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (!stopping) process.stdout.write(setupLink.stdout);
  };
  void printWhenUp();
}
