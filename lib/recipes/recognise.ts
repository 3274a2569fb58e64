import { RE2JS } from "re2js";
import type { PageSigns } from "./page-signs";
import type { Recipe } from "./recipe-schema";

/**
 * Which applications a page's signs point to, with the evidence in words. A sign is a fact the
 * page showed anyway (no request is spent here); the recipe's probe, one counted request, is for
 * the caller to send, and only for the candidates found here.
 */
export interface Candidate {
  recipe: Recipe;
  /** The version the generator tag states, if any. */
  version?: string;
  /** "generator tag \"CKAN 2.10.4\"", "link rel https://api.w.org/", … */
  evidence: string[];
  /** Where the application lives: the page's origin, or the API root a `<link rel>` names. */
  base: string;
}

export function recogniseApplications(recipes: readonly Recipe[], signs: PageSigns, pageUrl: string): Candidate[] {
  const candidates: Candidate[] = [];
  for (const recipe of recipes) {
    const { recognise } = recipe;
    const evidence: string[] = [];
    let version: string | undefined;
    let base = new URL("/", pageUrl).href;
    let baseFromLink = false;
    if (recognise.generator) {
      const pattern = RE2JS.compile(recognise.generator, RE2JS.CASE_INSENSITIVE);
      for (const generator of signs.generators) {
        const matcher = pattern.matcher(generator);
        if (matcher.find()) {
          evidence.push(`generator tag "${generator}"`);
          version = groupOrUndefined(matcher, "version");
          break;
        }
      }
    }
    for (const rel of recognise.linkRel) {
      const targets = signs.linkRels.get(rel.toLowerCase());
      if (targets) {
        evidence.push(`link rel ${rel}`);
        // A link to the application's API root says where the application lives (a sub-path, another port).
        const apiRoot = targets[0] && recognise.probe ? apiBase(targets[0], recognise.probe.path) : undefined;
        if (apiRoot) {
          base = apiRoot;
          baseFromLink = true;
        }
      }
    }
    for (const fragment of recognise.assetPaths) {
      const asset = signs.assetUrls.find((url) => url.includes(fragment));
      if (asset) {
        evidence.push(`asset ${new URL(asset).pathname}`);
        // Assets live under the application's root: /data/webassets/… → the application is at /data/.
        // (Assets on another host, a CDN, say nothing of where the application is.)
        if (!baseFromLink && new URL(asset).origin === new URL(pageUrl).origin) base = asset.slice(0, asset.indexOf(fragment)) + "/";
        break;
      }
    }
    for (const cookie of recognise.cookies) {
      if (signs.cookies.includes(cookie)) evidence.push(`cookie ${cookie}`);
    }
    for (const [name, source] of Object.entries(recognise.headers)) {
      const value = signs.headers.get(name.toLowerCase());
      if (value !== undefined && RE2JS.compile(source, RE2JS.CASE_INSENSITIVE).matcher(value).find()) evidence.push(`header ${name}: ${value}`);
    }
    if (evidence.length > 0) candidates.push({ recipe, ...(version ? { version } : {}), evidence, base });
  }
  return candidates.sort((a, b) => b.evidence.length - a.evidence.length);
}

/** `https://x/blog/wp-json/` with probe path `wp-json/` → `https://x/blog/`; undefined when the target does not end so. */
function apiBase(target: string, probePath: string): string | undefined {
  const url = new URL(target);
  const suffix = probePath.replace(/^\//, "");
  if (!url.pathname.endsWith(suffix)) return undefined;
  return new URL(url.pathname.slice(0, url.pathname.length - suffix.length) || "/", url).href;
}

function groupOrUndefined(matcher: ReturnType<ReturnType<typeof RE2JS.compile>["matcher"]>, name: string): string | undefined {
  try {
    return matcher.group(name) ?? undefined;
  } catch {
    return undefined; // the pattern has no such group
  }
}
