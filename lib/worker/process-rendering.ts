import type { ForageConfig } from "../config";
import type { CreateEngineOptions } from "../crawler/engine/create-engine";
import { scriptBuiltSigns } from "../crawler/render-need";
import { createRenderer, type ChromiumRenderer } from "../render/chromium-renderer";

type Rendering = NonNullable<CreateEngineOptions["rendering"]>;

/** The process's renderer, made on first use: one Chromium per worker, shared by its crawls (started with the first page that needs it). */
let made: { renderer: ChromiumRenderer | null; unavailable: string | null } | null = null;

/**
 * What the crawls of this process render pages with (crawl setting `render`): the shared
 * Chromium renderer, or none with the reason (no Chromium installed), and the test of a fetched
 * page's HTML for `auto`.
 */
export function processRendering(forage: Pick<ForageConfig, "chromiumPath" | "renderContexts" | "renderPageMs">): Rendering {
  if (!made) {
    const created = createRenderer(forage);
    made = created.renderer ? { renderer: created.renderer, unavailable: null } : { renderer: null, unavailable: created.why };
  }
  return { renderer: made.renderer, unavailable: made.unavailable, signs: scriptBuiltSigns };
}

/** Closes the process's browser, if one was started (worker shutdown, end of a foreground crawl). */
export async function closeProcessRendering(): Promise<void> {
  const renderer = made?.renderer;
  made = null;
  await renderer?.pool.close();
}

/** The browser's resident memory (all its processes), 0 when none runs: part of the worker's load. */
export function processRenderingRssBytes(): number {
  return made?.renderer?.pool.memoryBytes() ?? 0;
}
