import * as cheerio from "cheerio";
import type { SimulatedSite } from "../../lib/sitesim";

/** Every finite URL the reference BFS met: pages, targets, redirects, 404s, images and other files. */
export function finiteUrls(site: SimulatedSite): number {
  const g = site.groundTruth();
  return g.htmlPages.length + g.targets.length + g.redirects + g.notFound + g.images + g.otherFiles;
}

/**
 * Reading a simulated site's pages as served to `host` ("name" or "name:port"): a page's HTML,
 * and its in-site links as a crawler extracts them (ALGORITHM.md: a/area/frame/iframe), as
 * path + query keys.
 */
export function servedPages(host: string) {
  const hostname = host.replace(/:\d+$/, "");
  return {
    html(site: SimulatedSite, key: string): string {
      return site.respond("GET", key, { host }).body.toString("utf8");
    },
    linksFromHtml(body: string, key: string): string[] {
      const $ = cheerio.load(body);
      const base = `http://${host}${key}`;
      const out: string[] = [];
      for (const [sel, attr] of [["a[href]", "href"], ["area[href]", "href"], ["frame[src]", "src"], ["iframe[src]", "src"]] as const) {
        $(sel).each((_, el) => {
          let u: URL;
          try {
            u = new URL($(el).attr(attr)!.trim(), base);
          } catch {
            return;
          }
          if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname === hostname) out.push(u.pathname + u.search);
        });
      }
      return out;
    },
  };
}
