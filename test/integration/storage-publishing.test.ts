/**
 * What a worker publishes to a shared bucket before the rows naming it are written: page packs
 * and WARC files while they grow (parts), whole once closed, target files before their rows.
 * Read back from the bucket alone (the worker's folder is emptied first), as another machine would.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { WARCRecord } from "warcio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WarcFileWriter } from "../../lib/archive/warc-file-writer";
import { S3Storage } from "../../lib/storage";
import { listGrowingObjects, readGrowingObject } from "../../lib/storage/growing-object";
import { PageBodyStore } from "../../lib/store/page-bodies";
import { TargetFileStore } from "../../lib/store/target-files";
import { readWarcGz } from "../helpers/warc-reader";
import { s3StorageConfig, startS3Server, type TestS3Server } from "../helpers/s3-server";

let s3: TestS3Server;
let scratch: string;
beforeAll(async () => {
  s3 = await startS3Server();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "forage-publish-"));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const bucket = (prefix: string) => new S3Storage(s3StorageConfig(s3, prefix));
const page = (n: number) => Buffer.from(`<!doctype html><title>${n}</title>${"<p>lorem ipsum</p>".repeat(40 + n)}`);

describe("publishing to a shared bucket", () => {
  it("page packs: each publish uploads a part; past the part limit the pack is uploaded whole and another begins; every body reads back from the bucket", async () => {
    const storage = bucket("packs");
    const dataDir = path.join(scratch, "packs");
    const store = new PageBodyStore(dataDir, 3, "run1", storage, 3);
    const rows = [];
    for (let n = 0; n < 8; n++) {
      rows.push(store.put(page(n)).created!);
      await store.publish();
    }
    store.close();
    fs.rmSync(dataDir, { recursive: true, force: true }); // the worker's machine is gone
    const keys = (await storage.list("crawls/3/pages")).map((item) => item.key);
    // Three parts, then the whole pack; twice; then the third pack's two parts.
    expect(keys).toEqual([
      "crawls/3/pages/run1-1.brotli.pack",
      "crawls/3/pages/run1-2.brotli.pack.parts/0000000000000000",
      expect.stringMatching(/^crawls\/3\/pages\/run1-2\.brotli\.pack\.parts\/\d{16}$/),
      "crawls/3/pages/run1.brotli.pack",
    ]);
    for (const [n, row] of rows.entries()) expect((await PageBodyStore.read(dataDir, row, storage)).equals(page(n)), `page ${n}`).toBe(true);
    expect(new Set(rows.map((row) => row.storagePath)).size).toBe(3);
  });

  it("target files: uploaded before commit resolves, once per content", async () => {
    const storage = bucket("targets");
    const dataDir = path.join(scratch, "targets");
    const files = new TargetFileStore(dataDir, 4, storage);
    const body = Buffer.alloc(300_000, "csv,row\n");
    const save = async () => {
      const writer = files.open();
      await pipeline(Readable.from([body]), writer.writable);
      return writer.commit();
    };
    const first = await save();
    expect(fs.existsSync(path.join(dataDir, first.storagePath))).toBe(false); // the worker's disk keeps no copy
    const again = await save(); // the same content from another URL: the bucket has it already
    expect(again.storagePath).toBe(first.storagePath);
    expect(await storage.list("crawls/4")).toEqual([{ key: `crawls/4/files/${first.sha256}`, bytes: body.length }]);
    expect(createHash("sha256").update(await storage.read(first.storagePath)).digest("hex")).toBe(first.sha256);
  });

  it("WARC files: each sync publishes the records so far (file and CDXJ sidecar); close uploads them whole", async () => {
    const storage = bucket("warc");
    const dir = path.join(scratch, "warc", "crawls", "5", "warc");
    const writer = new WarcFileWriter({ dir, prefix: "forage-5", warcinfo: () => ({ software: "test" }), publishTo: { storage, keyPrefix: "crawls/5/warc" } });
    const record = (n: number) =>
      WARCRecord.create({ url: `http://example.org/${n}`, type: "resource", warcHeaders: { "Content-Type": "text/plain" } }, (async function* () {
        yield new TextEncoder().encode(`payload ${n}`);
      })());
    await writer.writeGroup([record(1)], (written) => written.map((w) => `line ${w.offset}`));
    await writer.sync();
    const [published] = await listGrowingObjects(storage, "crawls/5/warc");
    expect(published!.key).toMatch(/^crawls\/5\/warc\/forage-5-\d+-00001\.warc\.gz$/);
    const partial = readWarcGz(await readGrowingObject(storage, published!.key));
    expect(partial.map((r) => r.type)).toEqual(["warcinfo", "resource"]);
    await writer.writeGroup([record(2)], (written) => written.map((w) => `line ${w.offset}`));
    await writer.sync();
    expect((await readGrowingObject(storage, `${published!.key}.cdxj`)).toString().trim().split("\n")).toHaveLength(2);
    await writer.close();
    expect(fs.readdirSync(dir).filter((name) => !name.startsWith("."))).toEqual([]); // uploaded whole, the local files removed
    const keys = (await storage.list("crawls/5/warc")).map((item) => item.key);
    expect(keys).toEqual([published!.key, `${published!.key}.cdxj`]); // whole, the parts removed
    expect(readWarcGz(await storage.read(published!.key)).map((r) => r.field("WARC-Target-URI") ?? r.type)).toEqual(["warcinfo", "http://example.org/1", "http://example.org/2"]);
  });

  it("WARC files: a file published in as many parts as allowed is closed (whole in the bucket) and the next records open another", async () => {
    const storage = bucket("warc-parts");
    const dir = path.join(scratch, "warc-parts");
    const writer = new WarcFileWriter({ dir, prefix: "forage-6", warcinfo: () => ({}), publishTo: { storage, keyPrefix: "crawls/6/warc", maxParts: 2 } });
    const record = (n: number) => WARCRecord.create({ url: `http://example.org/${n}`, type: "resource" }, (async function* () {
      yield new TextEncoder().encode(`payload ${n}`);
    })());
    for (let n = 0; n < 5; n++) {
      await writer.writeGroup([record(n)], (written) => written.map((w) => `line ${w.offset}`));
      await writer.sync();
    }
    const objects = (await storage.list("crawls/6/warc")).map((item) => item.key.replace(/-\d{17}-/, "-T-"));
    expect(objects).toEqual([
      "crawls/6/warc/forage-6-T-00001.warc.gz",
      "crawls/6/warc/forage-6-T-00001.warc.gz.cdxj",
      "crawls/6/warc/forage-6-T-00002.warc.gz",
      "crawls/6/warc/forage-6-T-00002.warc.gz.cdxj",
      expect.stringMatching(/^crawls\/6\/warc\/forage-6-T-00003\.warc\.gz\.cdxj\.parts\/\d{16}$/),
      expect.stringMatching(/^crawls\/6\/warc\/forage-6-T-00003\.warc\.gz\.parts\/\d{16}$/),
    ]);
    await writer.close();
    expect(await storage.list("crawls/6/warc")).toHaveLength(6);
  });
});
