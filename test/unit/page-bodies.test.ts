import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decodePackedBody, MAX_UNWRITTEN_BYTES, PageBodyStore, type StoredPageBody } from "../../lib/store/page-bodies";

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-pages-"));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const page = (n: number) => Buffer.from(`<!doctype html><html><body>${`<li><a href="/p/${n}">Page ${n} — données</a></li>`.repeat(50)}</body></html>`);

describe("PageBodyStore", () => {
  it("appends each new body to the run's brotli pack once, and reads every one back by offset and length", async () => {
    const store = new PageBodyStore(dataDir, 7, "run1");
    const first = store.put(page(1)).created!;
    const second = store.put(page(2)).created!;
    expect(store.put(page(1))).toEqual({ sha256: first.sha256, created: null });
    // Written in one batch, by sync (the sink's flush) or close.
    const pack = path.join(dataDir, first.storagePath);
    expect(fs.statSync(pack).size).toBe(0);
    store.sync();
    expect(fs.statSync(pack).size).toBe(first.compressedBytes + second.compressedBytes);
    store.close();
    expect(first).toMatchObject({ storagePath: path.join("crawls", "7", "pages", "run1.brotli.pack"), offset: 0, bytes: page(1).length });
    expect(second.offset).toBe(first.compressedBytes);
    expect(first.compressedBytes).toBeLessThan(first.bytes / 4);
    expect(fs.statSync(path.join(dataDir, first.storagePath)).size).toBe(first.compressedBytes + second.compressedBytes);
    expect((await PageBodyStore.read(dataDir, second)).equals(page(2))).toBe(true);
    expect((await PageBodyStore.read(dataDir, first)).equals(page(1))).toBe(true);
  });

  it("still reads the gzip members of packs written before brotli", async () => {
    const storagePath = path.join("crawls", "3", "pages", "1700000000000.pack");
    const members = [page(1), page(2)].map((body) => zlib.gzipSync(body, { level: 1 }));
    fs.mkdirSync(path.dirname(path.join(dataDir, storagePath)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, storagePath), Buffer.concat(members));
    const second = { storagePath, offset: members[0]!.length, compressedBytes: members[1]!.length };
    expect((await PageBodyStore.read(dataDir, second)).equals(page(2))).toBe(true);
    expect(decodePackedBody(storagePath, members[0]!).equals(page(1))).toBe(true);
  });

  it(`writes on its own once ${MAX_UNWRITTEN_BYTES} bytes wait, and on close`, async () => {
    const store = new PageBodyStore(dataDir, 7, "run1");
    const bodies = Array.from({ length: 40 }, () => randomBytes(50_000)); // incompressible: 2 MB stored
    const created: StoredPageBody[] = bodies.map((body) => store.put(body).created!);
    const pack = path.join(dataDir, created[0]!.storagePath);
    const end = (i: number) => created[i]!.offset + created[i]!.compressedBytes;
    const size = fs.statSync(pack).size;
    expect(size).toBeGreaterThanOrEqual(MAX_UNWRITTEN_BYTES);
    expect(created.some((_, i) => end(i) === size)).toBe(true);
    store.close();
    expect(fs.statSync(pack).size).toBe(end(39));
    expect((await PageBodyStore.read(dataDir, created[39]!)).equals(bodies[39]!)).toBe(true);
  });

  it("does not store again what an earlier run of the crawl stored (resume)", () => {
    const earlier = new PageBodyStore(dataDir, 7, "run1");
    const { sha256 } = earlier.put(page(1));
    earlier.close();
    const resumed = new PageBodyStore(dataDir, 7, "run2");
    resumed.remember([sha256]);
    expect(resumed.put(page(1)).created).toBeNull();
    expect(resumed.put(page(2)).created).toMatchObject({ storagePath: path.join("crawls", "7", "pages", "run2.brotli.pack"), offset: 0 });
    resumed.close();
  });
});
