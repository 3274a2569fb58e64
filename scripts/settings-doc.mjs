#!/usr/bin/env node
// Rewrites the generated table of docs/SETTINGS.md from lib/crawler/settings-table.ts (the one
// place each algorithm setting is written). `--check`: change nothing, exit 1 when they differ.
import fs from "node:fs";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const { withRenderedSettingsTable } = await import("../lib/crawler/settings-doc.ts");
const file = path.resolve(import.meta.dirname, "../docs/SETTINGS.md");
const before = fs.readFileSync(file, "utf8");
const after = withRenderedSettingsTable(before);
if (process.argv.includes("--check")) {
  if (after !== before) console.error("docs/SETTINGS.md is out of date: node scripts/settings-doc.mjs rewrites it");
  process.exitCode = after === before ? 0 : 1;
} else {
  if (after !== before) fs.writeFileSync(file, after);
  console.log(`docs/SETTINGS.md: ${after === before ? "already up to date" : "table rewritten"}`);
}
