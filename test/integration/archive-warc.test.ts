import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WarcExchangeRecorder } from "../../lib/archive/warc-exchange-recorder";
import { crawlWarcDir } from "../../lib/archive/warc-paths";
import { parseCdxjLine } from "../../lib/archive/cdxj";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { page, runTestCrawl, startRouteSite, startSimulatedSite, testCrawlConfig, type TestCrawlInput, type TestSite } from "../helpers/crawl-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { digestProblems, parseHttpBlock, readWarcGz, sha256Label, type WarcRecordRead } from "../helpers/warc-reader";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.dispose());

async function storedCrawl(input: TestCrawlInput, archive?: { keepWarc?: boolean; warcFileBytes?: number }): Promise<number> {
  const config = testCrawlConfig(input);
  const crawlId = await insertCrawl(t.db, { ...config, archive: { ...config.archive, ...archive } });
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  return crawlId;
}

interface Archive {
  files: string[];
  records: (WarcRecordRead & { file: string })[];
  cdxj: string[];
}

function readArchive(crawlId: number): Archive {
  const dir = crawlWarcDir(t.config.dataDir, crawlId);
  const files = fs.readdirSync(dir).filter((name) => name.endsWith(".warc.gz")).sort();
  const records = files.flatMap((file) => readWarcGz(fs.readFileSync(path.join(dir, file))).map((record) => ({ ...record, field: record.field, file })));
  const cdxj = files.flatMap((file) => fs.readFileSync(path.join(dir, `${file}.cdxj`), "utf8").split("\n").filter(Boolean));
  return { files, records, cdxj };
}

/** The response (or revisit) record that answered `method path`, found through its request record. */
function answerTo(records: WarcRecordRead[], method: string, p: string): WarcRecordRead {
  const request = records.find((r) => r.type === "request" && pathOfUri(r) === p && parseHttpBlock(r.block).startLine.startsWith(`${method} `));
  if (!request) throw new Error(`no ${method} ${p} in the archive`);
  return records.find((r) => r.field("WARC-Record-ID") === request.field("WARC-Concurrent-To"))!;
}

const pathOfUri = (record: WarcRecordRead) => {
  const url = new URL(record.field("WARC-Target-URI")!);
  return url.pathname + url.search;
};

const CSV = "region,value\nFR-IDF,12\nFR-ARA,7\n";
const ZIPPED = "year;value\n" + "2024;1\n".repeat(300);
const ZIPPED_GZIP = zlib.gzipSync(ZIPPED);

describe("the WARC written during a crawl (read with a test-only parser, not warcio)", () => {
  let site: TestSite;
  let archive: Archive;
  let crawlId: number;

  beforeAll(async () => {
    site = await startRouteSite({
      "/robots.txt": { type: "text/plain", body: "User-agent: *\nDisallow: /private/\n" },
      "/": page(["/a.csv", "/same.csv", "/zipped.csv", "/chunked.csv", "/moved", "/gone.csv", "/private/x.csv"]),
      "/a.csv": { type: "text/csv", body: CSV, headers: { "set-cookie": "a=1; Path=/", "X-Mixed-Case": "Kept" } },
      "/same.csv": { type: "text/csv", body: CSV },
      "/zipped.csv": { type: "text/csv", body: ZIPPED_GZIP, headers: { "content-encoding": "gzip" } },
      "/chunked.csv": (_req, res) => {
        res.writeHead(200, { "content-type": "text/csv" });
        res.write("k,v\n");
        setTimeout(() => res.end("1,2\n"), 5);
      },
      "/moved": { status: 301, headers: { location: "/moved.csv" }, body: "" },
      "/moved.csv": { type: "text/csv", body: "m,n\n1,1\n" },
      "/gone.csv": { status: 410, type: "text/html", body: "<p>gone</p>" },
    });
    crawlId = await storedCrawl({ rootUrl: site.rootUrl, strategy: "bfs" });
    archive = readArchive(crawlId);
  });
  afterAll(() => site.close());

  it("writes every record well formed, one gzip member each, WARC/1.1, with verified block and payload digests", () => {
    expect(archive.files).toHaveLength(1);
    expect(archive.records.length).toBeGreaterThan(10);
    for (const record of archive.records) expect(record.version).toBe("WARC/1.1");
    expect(digestProblems(archive.records)).toEqual([]);
    expect(archive.records[0]!.type).toBe("warcinfo");
    expect(archive.records[0]!.block.toString()).toContain("robots: obey");
    expect(archive.records.filter((r) => r.type === "warcinfo")).toHaveLength(1);
  });

  it("records a request and a response for every request the site served, robots.txt, redirect and error included", () => {
    const archived = archive.records.filter((r) => r.type === "request").map((r) => `${parseHttpBlock(r.block).startLine.split(" ")[0]} ${pathOfUri(r)}`);
    const served = site.log.map((r) => `${r.method} ${r.path}`);
    expect(archived.sort()).toEqual(served.sort());
    expect(served).toContain("GET /robots.txt");
    expect(served).toContain("GET /moved");
    expect(served.filter((r) => r.endsWith(" /gone.csv"))).not.toEqual([]);
    expect(served).not.toContain("GET /private/x.csv");
  });

  it("pairs each request with its response (WARC-Concurrent-To, same date)", () => {
    const byId = new Map(archive.records.map((r) => [r.field("WARC-Record-ID")!, r]));
    for (const request of archive.records.filter((r) => r.type === "request")) {
      const response = byId.get(request.field("WARC-Concurrent-To")!);
      expect(response?.type, pathOfUri(request)).toMatch(/^(response|revisit)$/);
      expect(response!.field("WARC-Date")).toBe(request.field("WARC-Date"));
      expect(response!.field("WARC-Target-URI")).toBe(request.field("WARC-Target-URI"));
    }
  });

  it("keeps the headers as received and the payload before content decoding", () => {
    const response = (p: string) => answerTo(archive.records, "GET", p);
    const zipped = parseHttpBlock(response("/zipped.csv").block);
    expect(zipped.payload.equals(ZIPPED_GZIP)).toBe(true);
    expect(zipped.headers).toContainEqual(["content-encoding", "gzip"]);
    expect(response("/a.csv").field("WARC-IP-Address")).toBe("127.0.0.1");
    const a = parseHttpBlock(response("/a.csv").block);
    expect(a.startLine).toBe("HTTP/1.1 200 OK");
    expect(a.headers).toContainEqual(["X-Mixed-Case", "Kept"]);
    const chunked = parseHttpBlock(response("/chunked.csv").block);
    expect(chunked.payload.toString()).toBe("k,v\n1,2\n");
    expect(chunked.headers.map(([n]) => n.toLowerCase())).not.toContain("transfer-encoding");
    expect(chunked.headers).toContainEqual(["X-Orig-Transfer-Encoding", "chunked"]);
    expect(parseHttpBlock(response("/moved").block).startLine).toBe("HTTP/1.1 301 Moved Permanently");
    const gone = answerTo(archive.records, site.log.find((r) => r.path === "/gone.csv")!.method, "/gone.csv");
    expect(parseHttpBlock(gone.block).startLine).toBe("HTTP/1.1 410 Gone");
  });

  it("writes a revisit (identical-payload-digest) for a payload already archived", () => {
    const first = answerTo(archive.records, "GET", "/a.csv");
    const revisit = archive.records.find((r) => r.type === "revisit")!;
    expect(pathOfUri(revisit)).toBe("/same.csv");
    expect(revisit.field("WARC-Profile")).toBe("http://netpreserve.org/warc/1.1/revisit/identical-payload-digest");
    expect(revisit.field("WARC-Payload-Digest")).toBe(sha256Label(Buffer.from(CSV)));
    expect(revisit.field("WARC-Refers-To-Target-URI")).toBe(first.field("WARC-Target-URI"));
    expect(revisit.field("WARC-Refers-To")).toBe(first.field("WARC-Record-ID"));
    expect(parseHttpBlock(revisit.block).payload.length).toBe(0);
  });

  it("adds the crawl's facts as metadata records", () => {
    const answer = answerTo(archive.records, "GET", "/a.csv");
    const meta = archive.records.find((r) => r.type === "metadata" && r.field("WARC-Concurrent-To") === answer.field("WARC-Record-ID"))!;
    expect(meta.field("Content-Type")).toBe("application/warc-fields");
    expect(meta.block.toString()).toContain("forage-kind: target");
    expect(meta.block.toString()).toContain("forage-tag-path: ");
    expect(meta.block.toString()).toContain(`forage-referrer: ${site.rootUrl}`);
  });

  it("indexes each GET's response or revisit in the CDXJ sidecar at its record's first byte", () => {
    const dir = crawlWarcDir(t.config.dataDir, crawlId);
    // GETs only: a HEAD's empty answer is archived but not indexed (a reader would replay it as the page).
    expect(archive.cdxj).toHaveLength(archive.records.filter((r) => r.type === "request" && parseHttpBlock(r.block).startLine.startsWith("GET ")).length);
    for (const line of archive.cdxj) {
      const { fields } = parseCdxjLine(line)!;
      const file = fs.readFileSync(path.join(dir, fields.filename!));
      const [record] = readWarcGz(file.subarray(Number(fields.offset), Number(fields.offset) + Number(fields.length)));
      expect(record!.field("WARC-Record-ID")).toBe(fields.recordId);
      expect(record!.field("WARC-Target-URI")).toBe(fields.url);
    }
  });
});

describe("WARC files across a simulated site, rotation and older crawls", () => {
  it("archives every request the simulator served, rotating files at the configured size", async () => {
    const site = await startSimulatedSite(buildSite({ shape: "statistics-office", size: "tiny", seed: 3 }));
    const big = await startRouteSite({
      "/": page(["/1.csv", "/2.csv", "/3.csv"]),
      ...Object.fromEntries([1, 2, 3].map((n) => [`/${n}.csv`, { type: "text/csv", body: randomBytes(900 * 1024).toString("base64") }])),
    });
    try {
      const crawlId = await storedCrawl({ rootUrl: site.rootUrl, strategy: "sb", budget: { requests: 150 } });
      const archive = readArchive(crawlId);
      expect(digestProblems(archive.records)).toEqual([]);
      const requests = archive.records.filter((r) => r.type === "request").map((r) => `${parseHttpBlock(r.block).startLine.split(" ")[0]} ${pathOfUri(r)}`);
      expect(site.log.length).toBeGreaterThan(50);
      expect(requests.sort()).toEqual(site.log.map((r) => `${r.method} ${r.path}`).sort());

      const rotated = await storedCrawl({ rootUrl: big.rootUrl, strategy: "bfs" }, { warcFileBytes: 1024 * 1024 });
      const files = readArchive(rotated);
      expect(files.files.length).toBeGreaterThanOrEqual(2);
      for (const file of files.files) expect(files.records.filter((r) => r.file === file)[0]!.type).toBe("warcinfo");
      for (const n of [1, 2, 3]) expect(parseHttpBlock(answerTo(files.records, "GET", `/${n}.csv`).block).payload.length).toBeGreaterThan(1_200_000);
    } finally {
      await site.close();
      await big.close();
    }
  });

  it("keeps no archive for a crawl stored before the setting existed, nor when it is off", async () => {
    const site = await startRouteSite({ "/": page(["/a.csv"]), "/a.csv": { type: "text/csv", body: CSV } });
    try {
      const config = testCrawlConfig({ rootUrl: site.rootUrl });
      const { archive: _dropped, ...older } = config;
      const olderId = await insertCrawl(t.db, config);
      await t.db.crawl.update({ where: { id: olderId }, data: { config: JSON.stringify(older) } });
      await runStoredCrawl({ db: t.db, forage: t.config, crawlId: olderId, politeness: new HostPoliteness(), signal: new AbortController().signal });
      const offId = await storedCrawl({ rootUrl: site.rootUrl }, { keepWarc: false });
      for (const id of [olderId, offId]) {
        expect((await t.db.crawl.findUniqueOrThrow({ where: { id } })).status).toBe("finished");
        expect(fs.existsSync(crawlWarcDir(t.config.dataDir, id))).toBe(false);
      }
    } finally {
      await site.close();
    }
  });
});

describe("the exchange recorder cannot hurt the crawl", () => {
  it("makes the same requests and finds the same targets when the recorder throws everywhere", async () => {
    const site = await startSimulatedSite(buildSite({ shape: "statistics-office", size: "tiny", seed: 2 }));
    try {
      const input = { rootUrl: site.rootUrl, strategy: "sb" as const, budget: { requests: 120 } };
      const plain = await runTestCrawl(input);
      const throwingOnOpen = await runTestCrawl(input, {
        exchangeRecorder: {
          open: () => {
            throw new Error("disk on fire");
          },
        },
      });
      let opened = 0;
      const throwingOnBytes = await runTestCrawl(input, {
        exchangeRecorder: {
          open: () => {
            opened += 1;
            return {
              chunk: () => {
                throw new Error("disk on fire");
              },
              end: () => {
                throw new Error("disk on fire");
              },
            };
          },
          room: () => Promise.resolve(),
        },
      });
      expect(opened).toBeGreaterThan(100);
      for (const run of [throwingOnOpen, throwingOnBytes]) {
        expect(run.sequence).toEqual(plain.sequence);
        expect(run.counters.targets).toBe(plain.counters.targets);
      }
    } finally {
      await site.close();
    }
  });

  it("holds the crawl back while more than 64 MiB of payloads wait for the disk", async () => {
    const dir = fs.mkdtempSync(path.join(t.config.dataDir, "room-"));
    const recorder = new WarcExchangeRecorder({ dir, prefix: "room", warcinfo: () => ({ software: "test" }) });
    const payload = Buffer.alloc(30 * 1024 * 1024, 7);
    const head = (n: number) => ({
      method: "GET" as const,
      url: `http://example.org/${n}.csv`,
      requestHeaders: [["host", "example.org"]] as [string, string][],
      requestedAt: new Date(),
      httpVersion: "HTTP/1.1",
      status: 200,
      statusText: "OK",
      responseHeaders: [["Content-Type", "text/csv"]] as [string, string][],
    });
    await recorder.room(); // empty: room at once
    for (let n = 0; n < 3; n++) {
      const recording = recorder.open(head(n));
      recording.chunk(Buffer.concat([payload, Buffer.from(String(n))]));
      recording.end({ truncated: null });
    }
    let released = false;
    const waiting = recorder.room().then(() => (released = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(false); // 90 MiB unwritten
    await waiting;
    await recorder.close();
    const records = fs.readdirSync(dir).filter((n) => n.endsWith(".warc.gz")).flatMap((n) => readWarcGz(fs.readFileSync(path.join(dir, n))));
    expect(records.filter((r) => r.type === "response")).toHaveLength(3);
    expect(digestProblems(records)).toEqual([]);
  });
});

describe("a run killed mid-write", () => {
  it("leaves a torn last record that the next run cuts off before writing its own file", async () => {
    const dir = fs.mkdtempSync(path.join(t.config.dataDir, "torn-"));
    const exchange = (recorder: WarcExchangeRecorder, n: number) => {
      const recording = recorder.open({
        method: "GET",
        url: `http://example.org/${n}.html`,
        requestHeaders: [["host", "example.org"]],
        requestedAt: new Date(),
        httpVersion: "HTTP/1.1",
        status: 200,
        statusText: "OK",
        responseHeaders: [["Content-Type", "text/html"]],
        facts: { kind: "page" },
      });
      recording.chunk(Buffer.from(`<title>${n}</title>${"x".repeat(5000 + n)}`));
      recording.end({ truncated: null });
    };
    const first = new WarcExchangeRecorder({ dir, prefix: "torn", warcinfo: () => ({ software: "test" }) });
    for (let n = 0; n < 3; n++) exchange(first, n);
    await first.close();
    const [name] = first.writer.files;
    const file = path.join(dir, name!);
    const whole = fs.readFileSync(file);
    // The kill: half of a fourth record's member reached the disk, and its index line too.
    const member = zlib.gzipSync(Buffer.from(`WARC/1.1\r\nWARC-Type: response\r\n${"y".repeat(4000)}`));
    fs.appendFileSync(file, member.subarray(0, member.length >> 1));
    const torn = JSON.stringify({ url: "http://example.org/3.html", offset: String(whole.length), length: String(member.length), filename: name, recordId: "<urn:uuid:torn>" });
    fs.appendFileSync(`${file}.cdxj`, `org,example)/3.html 20260101000000 ${torn}\n`);
    expect(() => readWarcGz(fs.readFileSync(file))).toThrow();

    const second = new WarcExchangeRecorder({ dir, prefix: "torn", warcinfo: () => ({ software: "test" }) });
    exchange(second, 4);
    await second.close();
    expect(fs.readFileSync(file).equals(whole)).toBe(true);
    expect(digestProblems(readWarcGz(whole))).toEqual([]);
    const lines = fs.readFileSync(`${file}.cdxj`, "utf8").trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines.join("\n")).not.toContain("<urn:uuid:torn>");
    expect(second.writer.files).toHaveLength(1);
    expect(second.writer.files[0]).not.toBe(name);
  });
});
