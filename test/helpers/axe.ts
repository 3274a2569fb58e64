import fs from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, Result } from "axe-core";
import type { Page } from "playwright-core";

/**
 * axe-core's checks in a playwright-core page (the `@axe-core/playwright` wrapper needs Node 22).
 * The engine's source is evaluated through the DevTools protocol, which the pages'
 * Content-Security-Policy (nonces, 'strict-dynamic') does not apply to: the page is checked as
 * users get it, CSP included, without a context that bypasses it.
 */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2.0 and 2.1, levels A and AA: the rules the app is held to. */
export const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** How many of a violation's elements the message names. */
const TARGETS_SHOWN = 4;

/**
 * The WCAG A/AA violations on the page as it is now, one readable line each: rule, impact, what
 * it asks, and the first elements at fault (CSS selectors), so a failing `toEqual([])` says what
 * to fix. `what` names the page in each line.
 */
export async function axeViolations(page: Page, what = page.url()): Promise<string[]> {
  const injected = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === "object");
  if (!injected) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      }),
    WCAG_AA_TAGS,
  )) as AxeResults;
  return results.violations.map((violation) => describeViolation(violation, what));
}

function describeViolation(violation: Result, what: string): string {
  const targets = violation.nodes.slice(0, TARGETS_SHOWN).map((node) => {
    const selector = node.target.map((part) => (Array.isArray(part) ? part.join(" >> ") : String(part))).join(" >> ");
    const detail = node.failureSummary?.split("\n").slice(1, 2).join("").trim();
    return detail ? `${selector} (${detail})` : selector;
  });
  const more = violation.nodes.length > TARGETS_SHOWN ? ` …and ${violation.nodes.length - TARGETS_SHOWN} more` : "";
  return `${what}: ${violation.id} [${violation.impact ?? "no impact given"}] ${violation.help} — ${targets.join("; ")}${more}`;
}
