/**
 * The import allow-list: for each module of docs/ARCHITECTURE.md's table, the project paths it may
 * import (a folder or a file; a folder allows everything under it) and the npm packages it may use.
 * A module may always import within itself and Node's built-in modules; nothing else.
 * A source file belongs to the longest module path it lies in (`lib/crawler/fetch/retry.ts` is
 * `lib/crawler/fetch`, `lib/crawler/links.ts` is `lib/crawler`).
 *
 * test/unit/architecture.test.ts fails on any import outside it, and on a "depends on" cell of
 * docs/ARCHITECTURE.md that is not this map's rendering (`node scripts/architecture-deps.mjs`
 * rewrites the column). It lives in test/ because only these checks read it: no running code does.
 */
export interface ModuleRule {
  /** Project paths (relative to the root, folders without a trailing slash) this module may import. */
  imports: readonly string[];
  /** npm packages (`name` or `@scope/name`), besides Node's built-ins. */
  packages: readonly string[];
}

export const IMPORT_MAP: Readonly<Record<string, ModuleRule>> = {
  "lib/config.ts": { imports: ["lib/crawler/fetch"], packages: ["zod"] },
  "lib/storage": { imports: ["lib/config.ts"], packages: ["@aws-sdk/client-s3", "@aws-sdk/lib-storage"] },
  // Re-exports lib/crawler/crawl-config.ts for the modules outside the crawler.
  "lib/crawl-config.ts": { imports: ["lib/crawler"], packages: [] },
  "lib/crawl-status.ts": { imports: [], packages: [] },
  "lib/format.ts": { imports: [], packages: [] },
  "lib/errors.ts": { imports: ["lib/field-errors.ts"], packages: [] },
  "lib/field-errors.ts": { imports: [], packages: ["zod"] },
  // The engine and its settings: nothing but itself, its status vocabulary and the field messages.
  "lib/crawler": { imports: ["lib/crawl-status.ts", "lib/field-errors.ts"], packages: ["fast-xml-parser", "hnswlib-node", "htmlparser2", "re2js", "zod"] },
  "lib/crawler/fetch": { imports: ["lib/crawler/defaults.ts"], packages: ["file-type", "ipaddr.js", "undici", "zod"] },
  "lib/crawler/engine": { imports: ["lib/crawler", "lib/crawl-status.ts"], packages: [] },
  "lib/crawler/replay": { imports: ["lib/crawler/engine", "lib/crawler/fetch", "lib/crawler/crawl-config.ts"], packages: [] },
  "lib/bench": { imports: ["lib/config.ts", "lib/crawl-config.ts", "lib/crawler/engine", "lib/crawler/fetch", "lib/sitesim", "lib/store", "lib/worker"], packages: [] },
  "lib/store": {
    imports: ["lib/auth", "lib/config.ts", "lib/crawl-config.ts", "lib/crawl-status.ts", "lib/crawler", "lib/errors.ts", "lib/storage", "generated/prisma", "generated/prisma-postgres"],
    packages: ["@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "better-sqlite3", "zod"],
  },
  "lib/store/dialect.ts": { imports: ["lib/config.ts"], packages: [] },
  "lib/harvest": {
    imports: ["lib/auth", "lib/config.ts", "lib/crawl-config.ts", "lib/crawler/fetch", "lib/errors.ts", "lib/field-errors.ts", "lib/log", "lib/store"],
    packages: ["croner", "undici", "zod"],
  },
  "lib/worker": {
    imports: ["lib/archive", "lib/config.ts", "lib/crawl-config.ts", "lib/crawl-status.ts", "lib/crawler", "lib/harvest", "lib/log", "lib/recipes", "lib/render", "lib/storage", "lib/store"],
    packages: [],
  },
  "lib/export": { imports: ["lib/archive", "lib/config.ts", "lib/errors.ts", "lib/storage", "lib/store"], packages: ["yazl"] },
  "lib/archive": {
    imports: ["lib/config.ts", "lib/crawl-config.ts", "lib/crawler/engine", "lib/crawler/fetch", "lib/errors.ts", "lib/export", "lib/storage", "lib/store", "lib/worker"],
    packages: ["warcio", "yauzl", "yazl"],
  },
  "lib/api": { imports: ["lib/auth", "lib/crawl-config.ts", "lib/errors.ts", "lib/export", "lib/field-errors.ts", "lib/store"], packages: ["zod"] },
  "lib/auth": {
    imports: ["lib/config.ts", "lib/errors.ts", "lib/field-errors.ts", "lib/store"],
    packages: ["@node-rs/argon2", "@zxcvbn-ts/core", "@zxcvbn-ts/language-common", "@zxcvbn-ts/language-en", "ipaddr.js", "pg", "rate-limiter-flexible", "zod"],
  },
  "lib/server": { imports: ["lib/api", "lib/crawler/fetch", "lib/log", "lib/observability"], packages: ["ipaddr.js"] },
  "lib/log": { imports: ["lib/config.ts"], packages: ["pino", "pino-pretty"] },
  "lib/observability": { imports: ["lib/api", "lib/config.ts", "lib/crawl-status.ts", "lib/storage", "lib/store"], packages: ["prom-client"] },
  "lib/recipes": { imports: ["lib/crawler"], packages: ["htmlparser2", "jsonld", "n3", "rdfxml-streaming-parser", "re2js", "zod"] },
  "lib/preview": { imports: ["lib/config.ts", "lib/errors.ts", "lib/export", "lib/storage", "lib/store"], packages: ["csv-parse", "exceljs", "unpdf", "yauzl"] },
  "lib/sitesim": { imports: [], packages: [] },
  // The browser that renders script-built pages; every request it makes is answered by the engine.
  "lib/render": { imports: ["lib/crawler/engine/page-renderer.ts", "lib/config.ts"], packages: ["playwright-core"] },
  "lib/cli": {
    imports: [
      "lib/api", "lib/archive", "lib/auth", "lib/bench", "lib/config.ts", "lib/crawl-config.ts", "lib/crawler", "lib/errors.ts",
      "lib/format.ts", "lib/harvest", "lib/recipes", "lib/sitesim", "lib/storage", "lib/store", "lib/worker",
    ],
    packages: ["undici"],
  },
  app: {
    imports: [
      "components", "lib/api", "lib/archive", "lib/auth", "lib/config.ts", "lib/crawler/fetch", "lib/errors.ts", "lib/export",
      "lib/harvest", "lib/observability", "lib/preview", "lib/recipes", "lib/storage", "lib/store",
    ],
    packages: ["@tanstack/react-query", "next", "react", "server-only", "zod"],
  },
  components: {
    imports: [
      "lib/auth", "lib/crawl-config.ts", "lib/crawl-status.ts", "lib/crawler", "lib/export", "lib/format.ts", "lib/harvest",
      "lib/preview", "lib/recipes", "lib/storage", "lib/store",
    ],
    packages: ["@tanstack/react-query", "next", "react", "recharts", "zod"],
  },
};

/** The module a project path (a source file, or an import's target) belongs to: the longest map key it lies in. */
export function moduleOf(projectPath: string, map: Readonly<Record<string, ModuleRule>> = IMPORT_MAP): string | null {
  let best: string | null = null;
  for (const key of Object.keys(map)) {
    if (liesIn(projectPath, key) && (best === null || key.length > best.length)) best = key;
  }
  return best;
}

/**
 * Whether a project path lies in a folder or is a file of the map. Import targets come without their
 * extension (`../crawl-config`) or as a folder's index (`@/lib/store`), so `lib/crawl-config` is
 * `lib/crawl-config.ts`.
 */
export function liesIn(projectPath: string, mapPath: string): boolean {
  if (projectPath === mapPath || projectPath.startsWith(`${mapPath}/`)) return true;
  const withoutExtension = mapPath.replace(/\.tsx?$/, "");
  return withoutExtension !== mapPath && projectPath.replace(/\.(c|m)?tsx?$/, "") === withoutExtension;
}
