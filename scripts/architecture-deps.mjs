#!/usr/bin/env node
// Rewrites the "depends on" column of docs/ARCHITECTURE.md from the import allow-list
// (test/architecture/import-map.ts), the one test/unit/architecture.test.ts enforces.
// `--check`: change nothing, exit 1 when the column and the map differ.
import fs from "node:fs";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const { withRenderedDependsOn } = await import("../test/architecture/depends-on-column.ts");
const file = path.resolve(import.meta.dirname, "../docs/ARCHITECTURE.md");
const before = fs.readFileSync(file, "utf8");
const { markdown, unknownRows, missingModules } = withRenderedDependsOn(before);
for (const row of unknownRows) console.error(`docs/ARCHITECTURE.md: the row ${row} names a module the import map does not have`);
for (const module of missingModules) console.error(`docs/ARCHITECTURE.md: no row for ${module} (add one; the column is filled in)`);
const changed = before.split("\n").filter((line, i) => line !== markdown.split("\n")[i]);
if (process.argv.includes("--check")) {
  for (const line of changed) console.error(`out of date: ${line.slice(0, 60)}…`);
  process.exitCode = changed.length > 0 || unknownRows.length > 0 || missingModules.length > 0 ? 1 : 0;
} else {
  if (changed.length > 0) fs.writeFileSync(file, markdown);
  console.log(`docs/ARCHITECTURE.md: ${changed.length} "depends on" cells rewritten`);
  process.exitCode = unknownRows.length > 0 || missingModules.length > 0 ? 1 : 0;
}
