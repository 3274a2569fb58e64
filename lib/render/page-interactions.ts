import type { Page } from "playwright-core";

/**
 * The steps that make a listing show what it holds beyond its first screen: a "Load more" button
 * clicked, or the page scrolled to its bottom for infinite scrolling. The scripts are text, run in
 * the page as they are (no bundler helper can slip into them).
 */

/** Labels of buttons that add items to the page, in the languages the crawled sites use. */
export const LOAD_MORE_LABEL = /^(?:load|show|see|view) more\b|\bmore results\b|\bmehr (?:laden|anzeigen)\b|\b(?:voir|afficher) plus\b/i;

/**
 * Clicks the first visible, enabled button (or link without a real href) whose label reads like
 * {@link LOAD_MORE_LABEL}; true when one was clicked. Links with a real href are left alone: the
 * crawler follows those itself, and the renderer never navigates.
 */
const CLICK_LOAD_MORE = `(() => {
  const wanted = new RegExp(${JSON.stringify(LOAD_MORE_LABEL.source)}, "i");
  for (const el of document.querySelectorAll('button, [role="button"], a, input[type="button"]')) {
    if (el.tagName === "A") {
      const href = (el.getAttribute("href") || "").trim();
      if (href !== "" && href !== "#" && !/^javascript:/i.test(href)) continue;
    }
    if (el.disabled || el.getAttribute("aria-disabled") === "true") continue;
    const label = (el.tagName === "INPUT" ? el.value : el.innerText || el.getAttribute("aria-label") || "").trim();
    if (label.length > 60 || !wanted.test(label)) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (typeof el.checkVisibility === "function" && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    el.scrollIntoView({ block: "center" });
    el.click();
    return true;
  }
  return false;
})()`;

/** Scrolls to the bottom when there is more below the viewport (the document grew); true when it scrolled. */
const SCROLL_TO_BOTTOM = `(() => {
  const root = document.scrollingElement || document.documentElement;
  if (!root || root.scrollHeight - window.innerHeight <= window.scrollY + 1) return false;
  window.scrollTo(0, root.scrollHeight);
  return true;
})()`;

/** Distinct link targets (`a[href]`) in the page now. */
const COUNT_LINKS = `new Set(Array.from(document.querySelectorAll("a[href]"), (a) => a.href)).size`;

export async function clickLoadMore(page: Page): Promise<boolean> {
  return (await page.evaluate(CLICK_LOAD_MORE)) === true;
}

export async function scrollToBottom(page: Page): Promise<boolean> {
  return (await page.evaluate(SCROLL_TO_BOTTOM)) === true;
}

export async function countLinks(page: Page): Promise<number> {
  return Number(await page.evaluate(COUNT_LINKS));
}
