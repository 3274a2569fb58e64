/** One-paragraph summaries of simulated sites, for logs, CLI output and docs. */
import { sizeToUrlCount } from "./sizes";
import type { SimulatedSite } from "./site";

const SHORT_MIME: Record<string, string> = {
  "text/csv": "CSV",
  "application/vnd.ms-excel": "XLS",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "XLSX",
  "application/vnd.oasis.opendocument.spreadsheet": "ODS",
  "application/pdf": "PDF",
  "application/zip": "ZIP",
  "application/json": "JSON",
  "application/xml": "XML",
  "application/msword": "DOC",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "DOCX",
  "application/vnd.oasis.opendocument.text": "ODT",
  "text/plain": "TXT",
};

const fmt = (n: number) => n.toLocaleString("en-US");

/**
 * E.g. "statistics-office (seed 1, size small ≈ 2,000 URLs): 1,257 HTML pages, 610 targets
 * (PDF 222, XLSX 124, …), 82 redirects, 14 broken links, 217 images; infinite trap under
 * /calendar. A breadth-first crawl needs 1,614 / 2,065 / 2,192 requests for 50 / 90 / 100 %
 * of the targets." Computes ground truth on first use (under a second for large sites).
 */
export function describeSite(site: SimulatedSite): string {
  const g = site.groundTruth();
  const { shape, seed, size } = site.spec;
  const byMime = Object.entries(g.targetsByMime)
    .sort((a, b) => b[1] - a[1])
    .map(([mime, n]) => `${SHORT_MIME[mime] ?? mime} ${fmt(n)}`)
    .join(", ");
  const trap = g.trapPrefixes.length ? `; infinite trap under ${g.trapPrefixes.join(", ")}` : "; no infinite trap";
  const bfs =
    g.bfsRequestsTo90 === null
      ? "There are no targets."
      : `A breadth-first crawl needs ${fmt(g.bfsRequestsTo50!)} / ${fmt(g.bfsRequestsTo90)} / ${fmt(g.bfsRequestsToAll!)} requests for 50 / 90 / 100 % of the targets.`;
  return (
    `${shape} (seed ${seed}, size ${size} ≈ ${fmt(sizeToUrlCount(size))} URLs): ${fmt(g.htmlPages.length)} HTML pages, ` +
    `${fmt(g.targets.length)} targets (${byMime}), ${fmt(g.redirects)} redirects, ${fmt(g.notFound)} broken links, ` +
    `${fmt(g.images)} images${trap}. ${bfs}`
  );
}
