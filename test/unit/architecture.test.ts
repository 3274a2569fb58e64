import fs from "node:fs";
import { builtinModules } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderDependsOn, withRenderedDependsOn } from "../architecture/depends-on-column";
import { IMPORT_MAP, liesIn, moduleOf, type ModuleRule } from "../architecture/import-map";
import { moduleReferencesOf, type ModuleReference } from "../architecture/module-references";

/**
 * The import boundaries of docs/ARCHITECTURE.md, checked on the source against one allow-list
 * (test/architecture/import-map.ts): every module of lib/, app/ and components/ imports only
 * itself, the project paths and the npm packages its entry names, and Node's built-ins. Every
 * way a module can be pulled in counts (test/architecture/module-references.ts).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const AREAS = ["lib", "app", "components"];
type ImportMap = Readonly<Record<string, ModuleRule>>;

/** Why this reference of `file` (relative to the root) is outside its module's allow-list, or null when it is inside. */
function crossing(map: ImportMap, file: string, found: ModuleReference): string | null {
  const where = `${file}:${found.line} (${found.form})`;
  const own = moduleOf(file, map)!;
  const rule = map[own]!;
  const specifier = found.specifier;
  if (specifier === null) return `${where}: a computed module name cannot be checked`;
  let target: string | null = null;
  if (specifier.startsWith(".")) target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier));
  else if (specifier.startsWith("@/")) target = path.normalize(specifier.slice(2));
  if (target !== null) {
    if (liesIn(target, own) || rule.imports.some((allowed) => liesIn(target, allowed))) return null;
    return `${where}: "${specifier}" reaches ${moduleOf(target, map) ?? target}, not in ${own}'s imports`;
  }
  const name = packageName(specifier);
  if (specifier.startsWith("node:") || builtinModules.includes(name) || rule.packages.includes(name)) return null;
  return `${where}: package "${name}" is not in ${own}'s packages`;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** Source files under a root's lib/, app/ and components/, relative to that root. */
function sourcesUnder(root: string): string[] {
  return AREAS.filter((area) => fs.existsSync(path.join(root, area)))
    .flatMap((area) =>
      fs
        .readdirSync(path.join(root, area), { recursive: true, encoding: "utf8" })
        .filter((name) => /\.(c|m)?tsx?$/.test(name) && !name.endsWith(".d.ts"))
        .map((name) => path.join(area, name)),
    )
    .sort();
}

function crossingsOf(map: ImportMap, files: Array<{ file: string; code: string }>): string[] {
  return files.flatMap(({ file, code }) =>
    moduleOf(file, map) === null
      ? [`${file}: belongs to no module of the import map`]
      : moduleReferencesOf(code, file).flatMap((found) => crossing(map, file, found) ?? []),
  );
}

/** Every crossing of the tree at `root` (the project, or a planted copy). */
function scan(root: string, map: ImportMap = IMPORT_MAP): { files: string[]; crossings: string[] } {
  const files = sourcesUnder(root);
  return { files, crossings: crossingsOf(map, files.map((file) => ({ file, code: fs.readFileSync(path.join(root, file), "utf8") }))) };
}

const CRAWLER_FAMILY = Object.keys(IMPORT_MAP).filter((key) => liesIn(key, "lib/crawler"));
const UI_PACKAGES = ["next", "react", "react-dom", "recharts", "@tanstack/react-query"];

describe("import boundaries", () => {
  const planted = fs.mkdtempSync(path.join(os.tmpdir(), "forage-architecture-"));
  afterAll(() => fs.rmSync(planted, { recursive: true, force: true }));

  it("finds every form of import and judges each against the importing module's allow-list", () => {
    const code = [
      `import { prisma } from "../store/prisma-client";`,
      `import type { Db } from "../store/prisma-client";`,
      `export { leases } from "../worker/leases";`,
      `export * from "../bench/bench-run";`,
      `import sim = require("../sitesim/server");`,
      `const later = () => import("../store/replay-source");`,
      `type Page = typeof import("../../app/page");`,
      `const cjs = require("@/lib/worker/crawl-worker");`,
      `const created = createRequire(import.meta.url)("../store");`,
      `import Link from "next/link";`,
      `import { useState } from "react";`,
      `const name = "x"; const computed = import(\`../\${name}\`);`,
      `import { objectKey } from "../storage/object-storage";`,
      `import { loadConfig } from "../config";`,
      `import { Cron } from "croner";`,
      `import { parseCrawlConfig } from "../crawl-config";`,
      // Allowed: the engine's own modules, Node, its libraries and settings; mentions in comments and strings.
      `import { HostPoliteness } from "./fetch/host-politeness";`,
      `import fs from "node:fs";`,
      `import zlib from "zlib";`,
      `import { Parser } from "htmlparser2";`,
      `import type { CrawlConfig } from "./crawl-config";`,
      `import { STATUS_LABELS } from "@/lib/crawl-status";`,
      `// import { prisma } from "../store/prisma-client";`,
      `const text = 'import x from "../store/x"';`,
      `import { storeLike } from "./store/not-the-store";`,
    ].join("\n");
    expect(crossingsOf(IMPORT_MAP, [{ file: "lib/crawler/planted.ts", code }])).toEqual([
      `lib/crawler/planted.ts:1 (import): "../store/prisma-client" reaches lib/store, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:2 (import type): "../store/prisma-client" reaches lib/store, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:3 (export from): "../worker/leases" reaches lib/worker, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:4 (export from): "../bench/bench-run" reaches lib/bench, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:5 (import = require): "../sitesim/server" reaches lib/sitesim, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:6 (import()): "../store/replay-source" reaches lib/store, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:7 (typeof import()): "../../app/page" reaches app, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:8 (require()): "@/lib/worker/crawl-worker" reaches lib/worker, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:9 (require()): "../store" reaches lib/store, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:10 (import): package "next" is not in lib/crawler's packages`,
      `lib/crawler/planted.ts:11 (import): package "react" is not in lib/crawler's packages`,
      "lib/crawler/planted.ts:12 (import()): a computed module name cannot be checked",
      `lib/crawler/planted.ts:13 (import): "../storage/object-storage" reaches lib/storage, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:14 (import): "../config" reaches lib/config.ts, not in lib/crawler's imports`,
      `lib/crawler/planted.ts:15 (import): package "croner" is not in lib/crawler's packages`,
      `lib/crawler/planted.ts:16 (import): "../crawl-config" reaches lib/crawl-config.ts, not in lib/crawler's imports`,
    ]);
    // The same code in lib/worker: its own modules, the store, the storage, the config and the engine are its to import; htmlparser2 is not.
    const fromWorker = crossingsOf(IMPORT_MAP, [{ file: "lib/worker/planted.ts", code: code.replaceAll('"./fetch/', '"../crawler/fetch/') }]);
    expect(fromWorker.map((found) => found.replace(/ \(.*$/, ""))).toEqual([4, 5, 7, 10, 11, 12, 15, 20].map((line) => `lib/worker/planted.ts:${line}`));
    // A sub-module is held to its own entry: the engine's network layer may not reach the engine.
    expect(crossingsOf(IMPORT_MAP, [{ file: "lib/crawler/fetch/planted.ts", code: `import { CrawlEngine } from "../engine/crawl-engine";\nimport { ACTION } from "../defaults";` }])).toEqual([
      `lib/crawler/fetch/planted.ts:1 (import): "../engine/crawl-engine" reaches lib/crawler/engine, not in lib/crawler/fetch's imports`,
    ]);
  });

  it("fails on a forbidden import planted in a file of a source tree", () => {
    const write = (file: string, code: string) => {
      fs.mkdirSync(path.dirname(path.join(planted, file)), { recursive: true });
      fs.writeFileSync(path.join(planted, file), code);
    };
    write("lib/crawler/links.ts", `export const links = 1;\n`);
    write("lib/store/prisma-client.ts", `import { links } from "../crawler/links";\nexport const prisma = links;\n`);
    expect(scan(planted)).toEqual({ files: ["lib/crawler/links.ts", "lib/store/prisma-client.ts"], crossings: [] });
    write("lib/crawler/engine/crawl-engine.tsx", `import { prisma } from "../../store/prisma-client";\nexport const Engine = () => <div>{prisma}</div>;\n`);
    write("lib/newcomer/thing.ts", `export {};\n`);
    expect(scan(planted).crossings).toEqual([
      `lib/crawler/engine/crawl-engine.tsx:1 (import): "../../store/prisma-client" reaches lib/store, not in lib/crawler/engine's imports`,
      "lib/newcomer/thing.ts: belongs to no module of the import map",
    ]);
  });

  it("lib/, app/ and components/ import only what test/architecture/import-map.ts allows", () => {
    const { files, crossings } = scan(ROOT);
    expect(files).toContain(path.join("lib", "crawler", "engine", "crawl-engine.ts"));
    expect(files).toContain(path.join("app", "api", "crawls", "route.ts"));
    expect(files.length).toBeGreaterThan(400);
    expect(crossings).toEqual([]);
  });

  it("every source file belongs to a module of the map, and every allowed path exists", () => {
    expect(sourcesUnder(ROOT).filter((file) => moduleOf(file) === null)).toEqual([]);
    const allowed = Object.values(IMPORT_MAP).flatMap((rule) => rule.imports);
    expect([...Object.keys(IMPORT_MAP), ...allowed].filter((projectPath) => !fs.existsSync(path.join(ROOT, projectPath)))).toEqual([]);
  });

  it("keeps the engine to itself (its settings included), its status words and field messages, and lib/ away from the UI", () => {
    expect(CRAWLER_FAMILY).toEqual(["lib/crawler", "lib/crawler/fetch", "lib/crawler/engine", "lib/crawler/replay"]);
    for (const key of CRAWLER_FAMILY) {
      // lib/crawl-config.ts re-exports the crawler's settings: importing it back would be a cycle.
      const outside = IMPORT_MAP[key]!.imports.filter((allowed) => !liesIn(allowed, "lib/crawler") && allowed !== "lib/crawl-status.ts" && allowed !== "lib/field-errors.ts");
      expect({ key, outside }).toEqual({ key, outside: [] });
    }
    for (const [key, rule] of Object.entries(IMPORT_MAP).filter(([key]) => key.startsWith("lib/"))) {
      const ui = [...rule.imports.filter((allowed) => allowed === "app" || allowed === "components"), ...rule.packages.filter((name) => UI_PACKAGES.includes(name))];
      expect({ key, ui }).toEqual({ key, ui: [] });
    }
  });

  it("docs/ARCHITECTURE.md's depends-on column is the map's rendering (`node scripts/architecture-deps.mjs` rewrites it)", () => {
    const page = fs.readFileSync(path.join(ROOT, "docs", "ARCHITECTURE.md"), "utf8");
    const { markdown, unknownRows, missingModules } = withRenderedDependsOn(page);
    expect({ unknownRows, missingModules }).toEqual({ unknownRows: [], missingModules: [] });
    const pageLines = page.split("\n");
    expect(markdown.split("\n").filter((line, i) => line !== pageLines[i])).toEqual([]);
  });

  it("renders a row from its modules' entries and finds a drifted cell, an unknown row and a module without a row", () => {
    const map = {
      "lib/a": { imports: ["lib/b.ts", "lib/c/d"], packages: ["zod"] },
      "lib/b.ts": { imports: ["lib/a"], packages: ["zod", "undici"] },
      "lib/c": { imports: [], packages: [] },
      "lib/c/d": { imports: [], packages: [] },
    };
    expect(renderDependsOn(["lib/a"], map)).toBe("b.ts, c/d, zod");
    expect(renderDependsOn(["lib/a", "lib/b.ts"], map)).toBe("c/d, zod, undici");
    expect(renderDependsOn(["lib/c"], map)).toBe("–");
    const page = ["| module | what it is | depends on |", "|---|---|---|", "| `lib/a/` | A (see `lib/c`) | b.ts, zod |", "| `lib/c/` | C | – |", "| `lib/x/` | X | y |", ""].join("\n");
    expect(withRenderedDependsOn(page, map)).toEqual({
      markdown: page.replace("| b.ts, zod |", "| b.ts, c/d, zod |"),
      unknownRows: ["`lib/x/`"],
      missingModules: ["lib/b.ts", "lib/c/d"],
    });
  });
});
