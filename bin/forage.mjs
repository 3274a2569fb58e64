#!/usr/bin/env node
// The `forage` command. The CLI is TypeScript in lib/cli; tsx compiles it on the fly so the
// same sources serve the dashboard, the worker and the command line.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
const code = await main(process.argv.slice(2));
// The command's work is over when main returns (the long-running ones, worker and demo, return
// after SIGTERM): end now rather than when the last handle closes. A library's pooled connection,
// keep-alive socket or timer could otherwise keep a finished command alive for minutes. Output
// already written is flushed first.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write("", resolve))));
process.exit(code);
