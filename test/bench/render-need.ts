/**
 * The cost of the engine's "does this page need a browser" test (lib/crawler/render-need.ts), in
 * µs per page: on simulated pages as served, and on 1 MB pages (a shell carrying a 1 MB inline
 * bundle, which is read to its end, and an ordinary page of links, left at its first links).
 *
 *   node --import tsx test/bench/render-need.ts
 */
import { scriptBuiltSigns } from "../../lib/crawler/render-need";
import { buildSite, scriptedTruth } from "../../lib/sitesim";

function microsPerPage(label: string, pages: readonly string[], minRounds = 3): void {
  const bytes = pages.reduce((n, p) => n + p.length, 0);
  for (const page of pages) scriptBuiltSigns(page); // warm-up
  let rounds = 0;
  const start = performance.now();
  while (rounds < minRounds || performance.now() - start < 1_000) {
    for (const page of pages) scriptBuiltSigns(page);
    rounds++;
  }
  const micros = ((performance.now() - start) * 1000) / (rounds * pages.length);
  console.log(`${label.padEnd(44)} ${String(pages.length).padStart(5)} pages, ${(bytes / pages.length / 1024).toFixed(1).padStart(7)} KB avg: ${micros.toFixed(1).padStart(9)} µs/page`);
}

const host = { host: "127.0.0.1:8080" };
const office = buildSite({ shape: "statistics-office", seed: 1, size: "small" });
const officePages = office.groundTruth().htmlPages.map((key) => office.respond("GET", key, host).body.toString("utf8"));
microsPerPage("statistics-office small, every page", officePages);

const listing = buildSite({ shape: "scripted-listing", seed: 1, size: "tiny" });
microsPerPage("scripted-listing, every shell", scriptedTruth(listing).shells.map((key) => listing.respond("GET", key, host).body.toString("utf8")));

const page = (head: string, body: string) => `<!DOCTYPE html><html><head><title>T</title>${head}</head><body>${body}</body></html>`;
const bigShell = page(`<script>${"var data = [1, 2, 3, 4, 5, 6, 7, 8];\n".repeat(26_000)}</script>`, `<div id="app"></div><noscript>Enable JavaScript</noscript>`);
const bigTextShell = page(`<script src="/app.js"></script>`, `<div id="app"></div><script type="application/json" id="__NEXT_DATA__">${JSON.stringify({ rows: Array.from({ length: 40_000 }, (_, i) => ({ i, v: "x" })) })}</script>`);
const bigOrdinary = page(`<script src="/app.js"></script>`, `<ul>${Array.from({ length: 20_000 }, (_, i) => `<li><a href="/r/${i}">Report ${i}</a></li>`).join("")}</ul>`);
microsPerPage("1 MB shell (inline bundle)", [bigShell]);
microsPerPage("1 MB shell (__NEXT_DATA__ island)", [bigTextShell]);
microsPerPage("1 MB ordinary page (links)", [bigOrdinary]);
