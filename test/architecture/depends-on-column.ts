import { IMPORT_MAP, type ModuleRule } from "./import-map";

/**
 * docs/ARCHITECTURE.md's "depends on" column, rendered from the import map: for each row of the
 * Modules table, the project paths its modules may import (without `lib/`), then their npm
 * packages; "–" for none. A row naming several modules (`lib/crawl-status.ts`, `lib/format.ts`)
 * gets their union. Node's built-ins are always allowed and not listed.
 */
export function renderDependsOn(modules: readonly string[], map: Readonly<Record<string, ModuleRule>> = IMPORT_MAP): string {
  const rules = modules.map((module) => map[module]!);
  const paths = unique(rules.flatMap((rule) => rule.imports).filter((path) => !modules.includes(path))).map((path) => path.replace(/^lib\//, ""));
  const names = [...paths, ...unique(rules.flatMap((rule) => rule.packages))];
  return names.length > 0 ? names.join(", ") : "–";
}

export interface ModulesTableCheck {
  /** The page with every "depends on" cell rendered from the map. */
  markdown: string;
  /** Rows whose modules are not all keys of the map. */
  unknownRows: string[];
  /** Map keys no row names. */
  missingModules: string[];
}

/** Rewrites the "depends on" column of the page's Modules table (`| module | what it is | depends on |`). */
export function withRenderedDependsOn(markdown: string, map: Readonly<Record<string, ModuleRule>> = IMPORT_MAP): ModulesTableCheck {
  const named = new Set<string>();
  const unknownRows: string[] = [];
  const lines = markdown.split("\n").map((line) => {
    const row = /^\| (`[^|]+`) \| (.*) \| ([^|]*) \|$/.exec(line);
    if (!row) return line;
    const modules = [...row[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replace(/\/$/, ""));
    if (!modules.every((module) => module in map)) {
      unknownRows.push(row[1]!);
      return line;
    }
    for (const module of modules) named.add(module);
    return `| ${row[1]} | ${row[2]} | ${renderDependsOn(modules, map)} |`;
  });
  return { markdown: lines.join("\n"), unknownRows, missingModules: Object.keys(map).filter((key) => !named.has(key)) };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
