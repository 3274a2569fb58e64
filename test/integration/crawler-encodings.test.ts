import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { page, pathOf, runTestCrawl, startRouteSite, type TestCrawlResult, type TestSite } from "../helpers/crawl-fixtures";

/*
 * Pages that are not UTF-8. A browser decodes them with the charset of the Content-Type header or
 * of a <meta>, and requests non-ASCII paths UTF-8-percent-encoded: "données" is /donn%C3%A9es
 * whatever the page's encoding. Read as UTF-8, the windows-1252 byte 0xE9 became U+FFFD and the
 * crawler requested /donn%EF%BF%BD… (a 404) instead.
 */
const latin1 = (html: string) => Buffer.from(html, "latin1");
const CSV = { type: "text/csv", body: "year,value\n2024,1\n" };

let site: TestSite;
let crawl: TestCrawlResult;

beforeAll(async () => {
  site = await startRouteSite({
    "/": page(["/latin", "/meta", "/sjis", "/recherche"]),
    // Declared by the header only.
    "/latin": { type: "text/html; charset=ISO-8859-1", body: latin1('<html><body><a href="/donn\xe9es/tableau.csv">Donn\xe9es 2024</a></body></html>') },
    "/donn%C3%A9es/tableau.csv": CSV,
    // Declared by a <meta http-equiv> only; the header says text/html without a charset.
    "/meta": {
      type: "text/html",
      body: latin1('<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><body><a href="/r\xe9sum\xe9">R\xe9sum\xe9</a></body></html>'),
    },
    "/r%C3%A9sum%C3%A9": page(["/r%C3%A9sum%C3%A9/annexe.csv"]),
    "/r%C3%A9sum%C3%A9/annexe.csv": CSV,
    // A multi-byte legacy encoding: 資料 ("materials") in Shift_JIS, declared by <meta charset>.
    "/sjis": {
      type: "text/html",
      body: Buffer.concat([Buffer.from('<html><head><meta charset="Shift_JIS"></head><body><a href="/'), Buffer.from([0x8e, 0x91, 0x97, 0xbf]), Buffer.from('.csv">x</a></body></html>')]),
    },
    "/%E8%B3%87%E6%96%99.csv": CSV,
    // A query on a windows-1252 page: percent-encoded in windows-1252, as Chromium sends it (é is %E9, Î is %CE).
    "/recherche": { type: "text/html; charset=windows-1252", body: latin1('<html><body><a href="/export.csv?r\xe9gion=\xcele-de-France">Export</a></body></html>') },
    "/export.csv?r%E9gion=%CEle-de-France": CSV,
  });
  crawl = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs" });
});

afterAll(() => site.close());

describe("pages in other encodings", () => {
  it("requests the links of windows-1252 and Shift_JIS pages as a browser would (queries in the page's encoding), and finds their files", () => {
    const gets = site.paths("GET");
    expect(gets).toEqual(expect.arrayContaining(["/donn%C3%A9es/tableau.csv", "/r%C3%A9sum%C3%A9", "/r%C3%A9sum%C3%A9/annexe.csv", "/%E8%B3%87%E6%96%99.csv"]));
    expect(site.log.filter((r) => r.path.includes("%EF%BF%BD"))).toEqual([]);
    expect(crawl.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual([
      "/%E8%B3%87%E6%96%99.csv", "/donn%C3%A9es/tableau.csv", "/export.csv?r%E9gion=%CEle-de-France", "/r%C3%A9sum%C3%A9/annexe.csv",
    ]);
    expect(crawl.counted.filter((row) => row.status === 404)).toEqual([]);
  });
});
