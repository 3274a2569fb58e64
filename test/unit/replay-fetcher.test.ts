import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import type { FetchRequest } from "../../lib/crawler/fetch/types";
import { NOT_ARCHIVED, ReplayFetcher } from "../../lib/crawler/replay/replay-fetcher";
import { ReplayIndex } from "../../lib/crawler/replay/replay-index";
import { createReplayOracle } from "../../lib/crawler/replay/replay-oracle";
import type { ReplayLogRow, ReplaySource, StoredAttempt, StoredPageLocation } from "../../lib/crawler/replay/replay-source";

/**
 * The replay fetcher and index need nothing but a ReplaySource: here one held in memory (rows,
 * bodies, a real target file on disk), no database. The database implementation is tested
 * against stored crawls in test/integration/replay-engine.test.ts.
 */
const ROOT = "http://site.test/";
const PAGE = "<html><body><a href='/data.csv'>data</a></body></html>";
const CSV = "year,value\n2024,1\n".repeat(200);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-replay-source-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(path.join(dir, "data.csv"), CSV);

interface Row extends ReplayLogRow {
  attempt: StoredAttempt;
}

function row(id: number, fields: Partial<ReplayLogRow>, attempt: Partial<StoredAttempt> = {}): Row {
  const log: ReplayLogRow = { id, seq: id, kind: "page", method: "GET", url: ROOT, status: 200, mime: "text/html", outcome: "ok", error: null, redirectTo: null, bodySha256: null, ...fields };
  return {
    ...log,
    attempt: { status: log.status, mime: log.mime, headers: null, outcome: log.outcome, error: log.error, redirectTo: log.redirectTo, bytes: 500, page: null, target: null, ...attempt },
  };
}

class MemoryReplaySource implements ReplaySource {
  readonly logPages: Array<[number, number]> = [];
  readonly bodiesRead: StoredPageLocation[] = [];
  closed = false;
  constructor(
    private readonly rows: Row[],
    private readonly bodies: Map<string, Buffer>,
  ) {}
  async requestLog(afterId: number, take: number): Promise<ReplayLogRow[]> {
    this.logPages.push([afterId, take]);
    return this.rows.filter((r) => r.id > afterId).slice(0, take);
  }
  async attempt(id: number): Promise<StoredAttempt | null> {
    return this.rows.find((r) => r.id === id)?.attempt ?? null;
  }
  pageBody(page: StoredPageLocation): Buffer {
    this.bodiesRead.push(page);
    const body = this.bodies.get(page.storagePath);
    if (!body) throw new Error(`no body at ${page.storagePath}`);
    return body;
  }
  targetFile(storagePath: string): { absolutePath: string; size: number } | null {
    const absolutePath = path.join(dir, storagePath);
    return fs.existsSync(absolutePath) ? { absolutePath, size: fs.statSync(absolutePath).size } : null;
  }
  close(): void {
    this.closed = true;
  }
}

const rows: Row[] = [
  row(1, { kind: "robots", url: `${ROOT}robots.txt`, mime: "text/plain", seq: 0 }),
  row(2, { url: ROOT, bodySha256: "p" }, { headers: JSON.stringify({ "content-type": "text/html", "retry-after": "5" }), page: { storagePath: "pack", offset: 0, compressedBytes: 10 } }),
  row(3, { url: `${ROOT}data.csv`, method: "HEAD", mime: "text/csv" }, { bytes: 120 }),
  row(4, { url: `${ROOT}data.csv`, mime: "text/csv" }, { bytes: CSV.length + 100, target: { storagePath: "data.csv", mime: "text/csv" } }),
  row(5, { url: `${ROOT}private/x`, outcome: "robots-disallowed", status: null, mime: null }),
  row(6, { url: `${ROOT}only-head`, method: "HEAD", mime: "text/html" }),
  row(7, { url: `${ROOT}gone.pdf`, outcome: "error", status: null, mime: null, error: "connect-timeout: no answer" }),
];

const base: FetchRequest = { method: "GET", url: ROOT, maxBodyBytes: 1_000_000, blockedMimePrefixes: [] };

describe("replay from a ReplaySource", () => {
  it("indexes the request log page by page and answers GET, HEAD, robots.txt and gaps from the source alone", async () => {
    const source = new MemoryReplaySource(rows, new Map([["pack", Buffer.from(PAGE)]]));
    const index = await ReplayIndex.build(source, { targetMimeTypes: ["text/csv"], pageSize: 3 });
    expect(source.logPages).toEqual([
      [0, 3],
      [3, 3],
      [6, 3],
    ]);
    const fetcher = new ReplayFetcher({ source, index });

    const page = await fetcher.fetch(base);
    expect(page).toMatchObject({ outcome: "ok", status: 200, mime: "text/html" });
    expect(page.body!.toString()).toBe(PAGE);
    expect(page.headers["retry-after"]).toBeUndefined();
    expect(page.wireBytes + page.headerBytes).toBe(500);
    expect(source.bodiesRead).toEqual([{ storagePath: "pack", offset: 0, compressedBytes: 10 }]);

    const head = await fetcher.fetch({ ...base, url: `${ROOT}data.csv`, method: "HEAD" });
    expect(head).toMatchObject({ outcome: "ok", status: 200, mime: "text/csv", body: null });
    expect(head.wireBytes + head.headerBytes).toBe(120);

    const chunks: Buffer[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => void (chunks.push(chunk), done()) });
    const file = await fetcher.fetch({ ...base, url: `${ROOT}data.csv`, wantBody: () => "stream", openSink: () => sink });
    expect(file).toMatchObject({ outcome: "ok", streamed: true, bodyBytes: CSV.length });
    expect(createHash("sha256").update(Buffer.concat(chunks)).digest("hex")).toBe(createHash("sha256").update(CSV).digest("hex"));

    expect((await fetcher.fetch({ ...base, url: `${ROOT}only-head` })).error?.code).toBe(NOT_ARCHIVED);
    expect((await fetcher.fetch({ ...base, url: `${ROOT}never` })).error).toMatchObject({ code: NOT_ARCHIVED, retryable: false });
    expect((await fetcher.fetch({ ...base, url: `${ROOT}gone.pdf` })).error).toMatchObject({ code: "connect-timeout", message: "no answer", retryable: true });

    const robots = await fetcher.fetch({ ...base, url: `${ROOT}robots.txt`, overflow: "truncate" });
    expect(robots.body!.toString()).toBe("User-agent: *\nDisallow: /private/x$\n");
    expect(fetcher.stats).toEqual({ answered: 5, notArchived: 2 });

    const oracle = createReplayOracle(index);
    expect([oracle(ROOT), oracle(`${ROOT}data.csv`), oracle(`${ROOT}only-head`), oracle(`${ROOT}gone.pdf`), oracle(`${ROOT}never`)]).toEqual(["html", "target", "html", "neither", "neither"]);
  });

  it("answers 'not-archived' when the source cannot give a body: a missing page member, a target file gone", async () => {
    const source = new MemoryReplaySource(rows, new Map());
    const index = await ReplayIndex.build(source, { targetMimeTypes: ["text/csv"] });
    const fetcher = new ReplayFetcher({ source, index });
    const page = await fetcher.fetch(base);
    expect(page).toMatchObject({ outcome: "error", error: { code: NOT_ARCHIVED, message: "stored response unreadable: no body at pack" } });
    fs.renameSync(path.join(dir, "data.csv"), path.join(dir, "moved.csv"));
    try {
      const file = await fetcher.fetch({ ...base, url: `${ROOT}data.csv` });
      expect(file).toMatchObject({ outcome: "error", error: { code: NOT_ARCHIVED, message: "response body not in the stored crawl" } });
    } finally {
      fs.renameSync(path.join(dir, "moved.csv"), path.join(dir, "data.csv"));
    }
  });
});
