#!/usr/bin/env node
// The `forage` command. The CLI is TypeScript in lib/cli; tsx compiles it on the fly so the
// same sources serve the dashboard, the worker and the command line.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../lib/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
