/**
 * Does a fetched page look like a script-built shell, whose links appear only once its scripts
 * run? The engine's `auto` rendering mode asks this of every HTML page, so it is one streaming
 * pass (htmlparser2's Parser with callbacks, no DOM) that stops as soon as the page has shown
 * enough content to be an ordinary page.
 *
 * A page needs rendering when it runs scripts, its body is thin (at most 2 links and a few
 * hundred characters of text outside nav/header/footer) and it shows at least one sign of a
 * client-rendered application: an empty framework root (`#root`, `#app`, `#__next`, `#__nuxt`,
 * `[data-reactroot]`, `<app-root>`…), a `<noscript>` notice about JavaScript, a JSON data island
 * (`__NEXT_DATA__`, `<script type="application/json">`), a framework attribute (`ng-app`,
 * `x-data`), or no text at all. A server-rendered page that also ships scripts or a data island
 * has links or text, so it is not flagged.
 */
import { Parser } from "htmlparser2";

export interface RenderNeed {
  needed: boolean;
  /** A short phrase for the cockpit: why it is (or is not) thought script-built. */
  why: string;
}

/** A thin body has at most this many links outside nav/header/footer… */
const THIN_MAX_LINKS = 2;
/** …and fewer visible characters (whitespace aside) than this outside nav/header/footer. */
const THIN_MAX_TEXT = 400;
/** Fewer characters than this, with scripts, is a sign on its own. */
const BARE_MAX_TEXT = 40;
/** The page is written to the parser in slices this long, so an ordinary page stops early. */
const SLICE_CHARS = 16 * 1024;

const ROOT_IDS = new Set(["root", "app", "__next", "__nuxt", "___gatsby"]);
const ROOT_ATTRIBUTES = ["data-reactroot", "data-v-app", "ng-view", "ui-view"];
const ROOT_TAGS = new Set(["app-root"]);
const FRAMEWORK_ATTRIBUTES: ReadonlyArray<[string, string]> = [["ng-app", "an ng-app attribute"], ["x-data", "an x-data attribute"]];
/** Text inside these is not the page's content. */
const NOT_CONTENT = new Set(["head", "title", "script", "style", "noscript", "template", "nav", "header", "footer"]);
/** Links inside these are the site's chrome, not the page's content. */
const CHROME = new Set(["nav", "header", "footer"]);
const JAVASCRIPT_NOTICE = /javascript|\bjs\b|enable scripts/i;
const SCRIPT_TAG = /<script/i;

/** The label of a framework root the element is, or null. */
function rootLabel(name: string, attributes: Record<string, string>): string | null {
  if (ROOT_TAGS.has(name)) return `<${name}>`;
  const id = attributes.id;
  if (id !== undefined && ROOT_IDS.has(id)) return `#${id}`;
  for (const attribute of ROOT_ATTRIBUTES) if (attribute in attributes) return `[${attribute}]`;
  return null;
}

function isExecutableScript(attributes: Record<string, string>): boolean {
  const type = attributes.type?.trim().toLowerCase();
  return type === undefined || type === "" || type === "module" || /javascript|ecmascript/.test(type);
}

function isDataIsland(attributes: Record<string, string>): boolean {
  const type = attributes.type?.trim().toLowerCase();
  return attributes.id === "__NEXT_DATA__" || attributes.id === "__NUXT_DATA__" || type === "application/json";
}

/** Non-whitespace characters of `text`, counted up to `cap`. */
function visibleChars(text: string, cap: number): number {
  let n = 0;
  for (let i = 0; i < text.length && n < cap; i++) if (text.charCodeAt(i) > 32) n++;
  return n;
}

/** Does `html` look like a script-built shell whose links appear only after its scripts run? */
export function scriptBuiltSigns(html: string): RenderNeed {
  // Every page of an `auto` crawl passes here: without a script element (no executable one can be
  // there) it is no shell, and nothing needs parsing.
  if (!SCRIPT_TAG.test(html)) return { needed: false, why: "no scripts" };
  const stack: string[] = [];
  /** Open framework roots: their label, stack depth, and whether anything was put in them. */
  const openRoots: Array<{ label: string; depth: number; filled: boolean }> = [];
  let notContentDepth = 0;
  let chromeDepth = 0;
  let noscriptDepth = 0;
  let scripts = 0;
  let links = 0;
  let text = 0;
  let emptyRoot: string | null = null;
  let noscriptNotice = false;
  let island: string | null = null;
  let framework: string | null = null;
  let ordinary = false;

  const fill = () => {
    for (const root of openRoots) root.filled = true;
  };
  const checkOrdinary = () => {
    if (links > THIN_MAX_LINKS || text >= THIN_MAX_TEXT) {
      ordinary = true;
      parser.pause();
    }
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        fill();
        stack.push(name);
        if (NOT_CONTENT.has(name)) notContentDepth++;
        if (CHROME.has(name)) chromeDepth++;
        if (name === "noscript") noscriptDepth++;
        const label = rootLabel(name, attributes);
        if (label !== null) openRoots.push({ label, depth: stack.length, filled: false });
        if (framework === null) for (const [attribute, phrase] of FRAMEWORK_ATTRIBUTES) if (attribute in attributes) framework = phrase;
        if (name === "script") {
          if (isDataIsland(attributes)) island ??= attributes.id === "__NEXT_DATA__" ? "a __NEXT_DATA__ data island" : "a JSON data island";
          else if (isExecutableScript(attributes)) scripts++;
        } else if (name === "a" && chromeDepth === 0 && noscriptDepth === 0) {
          const href = attributes.href?.trim();
          if (href && !href.startsWith("#") && !/^javascript:/i.test(href)) {
            links++;
            checkOrdinary();
          }
        }
      },
      onclosetag(name) {
        const depth = stack.length;
        stack.pop();
        if (NOT_CONTENT.has(name)) notContentDepth--;
        if (CHROME.has(name)) chromeDepth--;
        if (name === "noscript") noscriptDepth--;
        const root = openRoots.at(-1);
        if (root && root.depth === depth) {
          openRoots.pop();
          if (!root.filled) emptyRoot ??= root.label;
        }
      },
      ontext(chunk) {
        const visible = visibleChars(chunk, THIN_MAX_TEXT);
        if (visible === 0) return;
        if (noscriptDepth > 0 && JAVASCRIPT_NOTICE.test(chunk)) noscriptNotice = true;
        if (stack.at(-1) === "script") return; // a script's own text puts nothing in a root
        fill();
        if (notContentDepth === 0) {
          text += visible;
          checkOrdinary();
        }
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  for (let at = 0; at < html.length && !ordinary; at += SLICE_CHARS) parser.write(html.slice(at, at + SLICE_CHARS));
  if (!ordinary) parser.end();

  if (ordinary) return { needed: false, why: links > THIN_MAX_LINKS ? "links in the page's body" : "text in the page's body" };
  if (scripts === 0) return { needed: false, why: "no scripts" };
  const signs: string[] = [];
  if (emptyRoot !== null) signs.push(`an empty ${emptyRoot} root`);
  if (noscriptNotice) signs.push("a <noscript> notice");
  if (island !== null) signs.push(island);
  if (framework !== null) signs.push(framework);
  if (signs.length === 0 && text < BARE_MAX_TEXT) signs.push("scripts and an almost empty body");
  if (signs.length === 0) return { needed: false, why: "a thin page without signs of a script-built one" };
  return { needed: true, why: signs.length === 1 ? signs[0]! : `${signs.slice(0, -1).join(", ")} and ${signs.at(-1)!}` };
}
