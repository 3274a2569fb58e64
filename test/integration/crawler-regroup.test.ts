import { afterEach, describe, expect, it } from "vitest";
import { runTestCrawl, startRouteSite, type TestSite } from "../helpers/crawl-fixtures";

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

const html = (body: string) => `<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`;
const dossierList = (hrefs: string[]) =>
  `<main><article class="doc"><section class="dossiers"><ul class="dossier-list">${hrefs.map((h) => `<li class="dossier-item"><a class="dossier-link" href="${h}">${h}</a></li>`).join("")}</ul></section></article></main>`;
const seeAlso = (hrefs: string[]) =>
  `<div class="layout"><div class="sidebar"><aside class="see-also"><p class="related">${hrefs.map((h) => `<span class="item"><a class="see-also-link" href="${h}">${h}</a></span>`).join("")}</p></aside></div></div>`;
const NOISE = Array.from({ length: 6 }, (_, i) => `/p/${i}`);

/**
 * An archive in which dossier /d/2 is first met in the root page's "see also" box (among plain
 * pages) and listed again in the dossier list of /s/1, the kind of list that paid on /d/1.
 */
function archive(): Record<string, string | { type: string; body: string }> {
  const routes: Record<string, string | { type: string; body: string }> = {
    "/": html(`${dossierList(["/d/1"])}<nav class="sections"><a class="section-link" href="/s/1">Section</a></nav>${seeAlso(["/d/2", ...NOISE])}`),
    "/d/1": html(`<div class="attachments"><a href="/files/1.csv">CSV</a></div>`),
    "/d/2": html(`<div class="attachments"><a href="/files/2.csv">CSV</a></div>`),
    "/s/1": html(dossierList(["/d/2"])),
    "/files/1.csv": { type: "text/csv", body: "a,b\n1,2\n" },
    "/files/2.csv": { type: "text/csv", body: "a,b\n3,4\n" },
  };
  for (const p of NOISE) routes[p] = html("<p>Nothing here.</p>");
  return routes;
}

async function pagesUntilSecondDossier(params: Record<string, unknown>) {
  site = await startRouteSite(archive());
  const crawl = await runTestCrawl({ rootUrl: site.rootUrl, seed: 3, params: { ...params, earlyStop: false, classifierBatchSize: 50 } }, { stopWhen: (c) => c.targets >= 2 });
  const pageRows = crawl.counted.filter((r) => r.method === "GET" && r.kind === "page");
  const pages = pageRows.map((r) => new URL(r.url).pathname);
  const dossierGroup = pageRows.find((r) => r.url.endsWith("/d/1"))?.groupId;
  const secondDossier = pageRows.find((r) => r.url.endsWith("/d/2"));
  await site.close();
  site = null;
  return { pages, dossierGroup, secondGroup: secondDossier?.groupId };
}

describe("a waiting link listed again under a group that pays (regroupRediscoveredLinks)", () => {
  it("is crawled from that group, where the paper's SB leaves it among the 'see also' links", async () => {
    const on = await pagesUntilSecondDossier({ regroupRediscoveredLinks: true });
    expect(on.pages.slice(0, 3)).toEqual(["/", "/d/1", "/s/1"]);
    expect(on.dossierGroup).toBeTypeOf("number");
    expect(on.secondGroup).toBe(on.dossierGroup);
    // /s/1 lists /d/2 again: the next pull of the paying group takes it (one "see also" page may come first, its group never tried).
    expect(on.pages.indexOf("/d/2")).toBeLessThanOrEqual(4);

    const off = await pagesUntilSecondDossier({ regroupRediscoveredLinks: false });
    expect(off.pages.slice(0, 3)).toEqual(["/", "/d/1", "/s/1"]);
    expect(off.secondGroup).not.toBe(off.dossierGroup); // taken from the "see also" group it was first seen in
  });
});
