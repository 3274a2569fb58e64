import { parseAst } from "rolldown/parseAst";

/**
 * Every module a TypeScript source refers to: static imports and re-exports (`import type` too),
 * `import x = require()`, dynamic `import()`, `typeof import()` in types, `require()` and
 * `createRequire(…)(…)`. Files are parsed (rolldown's parser, the one vitest itself runs on), so
 * comments and strings that merely mention a path do not count.
 */
export interface ModuleReference {
  /** The module specifier, or null when it is computed (it cannot be checked). */
  specifier: string | null;
  line: number;
  form: string;
}

export function moduleReferencesOf(code: string, fileName: string): ModuleReference[] {
  const program = parseAst(code, { lang: fileName.endsWith("x") ? "tsx" : "ts" }, fileName);
  const found: ModuleReference[] = [];
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
