import fs from "node:fs";
import path from "node:path";
import { parseAst } from "rolldown/parseAst";
import { describe, expect, it } from "vitest";

/**
 * The import boundaries of docs/ARCHITECTURE.md, checked on the source: the engine (lib/crawler)
 * reaches no database, worker, benchmark or simulator code, and nothing in lib/ reaches Next.js,
 * React or the app. Every way a module can be pulled in counts: static imports and re-exports
 * (`import type` too), `import x = require()`, dynamic `import()`, `typeof import()` in types,
 * `require()` and `createRequire(…)(…)`. Files are parsed (rolldown's parser, the one vitest
 * itself runs on), so comments and strings that merely mention a path do not count.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Folders (relative to the project root) and packages a module of the area must not import. */
interface Boundary {
  area: string;
  folders: readonly string[];
  packages: readonly RegExp[];
}

const NO_UI: Boundary["packages"] = [/^next(\/|$)/, /^@next\//, /^react(-dom)?(\/|$)/];

const CRAWLER: Boundary = { area: "lib/crawler", folders: ["lib/store", "lib/worker", "lib/bench", "lib/sitesim", "app", "components"], packages: NO_UI };
const LIB: Boundary = { area: "lib", folders: ["app", "components"], packages: NO_UI };

interface FoundImport {
  /** The module specifier, or null when it is computed (it cannot be checked). */
  specifier: string | null;
  line: number;
  form: string;
}

/** Every module reference of a TypeScript source, in order. */
function importsOf(code: string, fileName: string): FoundImport[] {
  const program = parseAst(code, { lang: "ts" }, fileName);
  const found: FoundImport[] = [];
  const lineOf = (offset: number) => code.slice(0, offset).split("\n").length;
  const add = (node: AstNode | null | undefined, form: string, at: AstNode) => {
    found.push({ specifier: literalText(node), line: lineOf(at.start as number), form });
  };
  const visit = (node: AstNode): void => {
    switch (node.type) {
      case "ImportDeclaration":
        add(node.source as AstNode, node.importKind === "type" ? "import type" : "import", node);
        break;
      case "ExportAllDeclaration":
      case "ExportNamedDeclaration":
        if (node.source) add(node.source as AstNode, "export from", node);
        break;
      case "TSImportEqualsDeclaration": {
        const reference = node.moduleReference as AstNode;
        if (reference.type === "TSExternalModuleReference") add(reference.expression as AstNode, "import = require", node);
        break;
      }
      case "ImportExpression":
        add(node.source as AstNode, "import()", node);
        break;
      case "TSImportType":
        add(node.source as AstNode, "typeof import()", node);
        break;
      case "CallExpression": {
        const callee = node.callee as AstNode;
        const args = node.arguments as AstNode[];
        const isRequire = callee.type === "Identifier" && callee.name === "require";
        const isCreatedRequire = callee.type === "CallExpression" && (callee.callee as AstNode).type === "Identifier" && (callee.callee as AstNode).name === "createRequire";
        if (isRequire || isCreatedRequire) add(args[0], "require()", node);
        break;
      }
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const item of value) if (isNode(item)) visit(item);
      if (isNode(value)) visit(value);
    }
  };
  visit(program as unknown as AstNode);
  return found;
}

type AstNode = { type: string; start?: number } & Record<string, unknown>;

function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && typeof (value as AstNode).type === "string";
}

/** A string literal's text, or a template literal's without substitutions; null for anything computed. */
function literalText(node: AstNode | null | undefined): string | null {
  if (!node) return null;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0) {
    return ((node.quasis as AstNode[])[0]!.value as { cooked: string }).cooked;
  }
  return null;
}

/** Why this reference crosses the boundary, or null when it does not. `file` is relative to the root. */
function crossing(boundary: Boundary, file: string, found: FoundImport): string | null {
  const where = `${file}:${found.line} (${found.form})`;
  const specifier = found.specifier;
  if (specifier === null) return `${where}: a computed module name cannot be checked`;
  let target: string | null = null;
  if (specifier.startsWith(".")) target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier));
  else if (specifier.startsWith("@/")) target = path.normalize(specifier.slice(2));
  if (target !== null) {
    const folder = boundary.folders.find((forbidden) => target === forbidden || target.startsWith(`${forbidden}/`));
    return folder ? `${where}: "${specifier}" reaches ${folder}/` : null;
  }
  return boundary.packages.some((pattern) => pattern.test(specifier)) ? `${where}: "${specifier}" is a UI package` : null;
}

/** Source files of an area, relative to the root. */
function sourcesOf(area: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, area), { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(c|m)?tsx?$/.test(name) && !name.endsWith(".d.ts"))
    .map((name) => path.join(area, name))
    .sort();
}

function crossingsOf(boundary: Boundary, files: Array<{ file: string; code: string }>): string[] {
  return files.flatMap(({ file, code }) => importsOf(code, file).flatMap((found) => crossing(boundary, file, found) ?? []));
}

function scan(boundary: Boundary): { files: string[]; crossings: string[] } {
  const files = sourcesOf(boundary.area);
  const crossings = crossingsOf(
    boundary,
    files.map((file) => ({ file, code: fs.readFileSync(path.join(ROOT, file), "utf8") })),
  );
  return { files, crossings };
}

describe("import boundaries", () => {
  it("finds every form of import and judges where it resolves", () => {
    const planted = [
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
      // Allowed: the engine's own modules, Node, libraries; mentions in comments and strings.
      `import { HostPoliteness } from "./fetch/host-politeness";`,
      `import fs from "node:fs";`,
      `import { Parser } from "htmlparser2";`,
      `import type { CrawlConfig } from "../crawl-config";`,
      `// import { prisma } from "../store/prisma-client";`,
      `const text = 'import x from "../store/x"';`,
      `import { storeLike } from "./store/not-the-store";`,
    ].join("\n");
    const crossings = crossingsOf(CRAWLER, [{ file: "lib/crawler/planted.ts", code: planted }]);
    expect(crossings).toEqual([
      'lib/crawler/planted.ts:1 (import): "../store/prisma-client" reaches lib/store/',
      'lib/crawler/planted.ts:2 (import type): "../store/prisma-client" reaches lib/store/',
      'lib/crawler/planted.ts:3 (export from): "../worker/leases" reaches lib/worker/',
      'lib/crawler/planted.ts:4 (export from): "../bench/bench-run" reaches lib/bench/',
      'lib/crawler/planted.ts:5 (import = require): "../sitesim/server" reaches lib/sitesim/',
      'lib/crawler/planted.ts:6 (import()): "../store/replay-source" reaches lib/store/',
      'lib/crawler/planted.ts:7 (typeof import()): "../../app/page" reaches app/',
      'lib/crawler/planted.ts:8 (require()): "@/lib/worker/crawl-worker" reaches lib/worker/',
      'lib/crawler/planted.ts:9 (require()): "../store" reaches lib/store/',
      'lib/crawler/planted.ts:10 (import): "next/link" is a UI package',
      'lib/crawler/planted.ts:11 (import): "react" is a UI package',
      "lib/crawler/planted.ts:12 (import()): a computed module name cannot be checked",
    ]);
    // The same imports from lib/store are fine there, except the UI ones.
    const fromStore = crossingsOf(LIB, [{ file: "lib/store/planted.ts", code: planted }]);
    expect(fromStore.map((crossing) => crossing.replace(/ \(.*$/, ""))).toEqual(["lib/store/planted.ts:7", "lib/store/planted.ts:10", "lib/store/planted.ts:11", "lib/store/planted.ts:12"]);
  });

  it("lib/crawler imports nothing from lib/store, lib/worker, lib/bench, lib/sitesim, the app or a UI package", () => {
    const { files, crossings } = scan(CRAWLER);
    expect(files).toContain(path.join("lib", "crawler", "engine", "crawl-engine.ts"));
    expect(files).toContain(path.join("lib", "crawler", "replay", "replay-fetcher.ts"));
    expect(crossings).toEqual([]);
  });

  it("lib/ never imports next/*, React, components/ or app/", () => {
    const { files, crossings } = scan(LIB);
    expect(files.length).toBeGreaterThan(200);
    expect(crossings).toEqual([]);
  });
});
