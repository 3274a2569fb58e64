import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GrowingObject,
  InvalidKeyError,
  listGrowingObjects,
  LocalFolderStorage,
  ObjectNotFoundError,
  openGrowingObject,
  readGrowingObject,
  S3Storage,
  type ByteRange,
  type ObjectStorage,
} from "../../lib/storage";
import { partKey } from "../../lib/storage/growing-object";
import { pollUntil } from "../helpers/poll-until";
import { s3StorageConfig, startS3Server, type TestS3Server } from "../helpers/s3-server";

// One contract, two implementations: the local folder and an S3-compatible server (s3rver on 127.0.0.1).
let s3: TestS3Server;
let scratch: string;
const implementations: Array<[string, () => ObjectStorage]> = [
  ["local folder", () => new LocalFolderStorage(fs.mkdtempSync(path.join(scratch, "store-")))],
  ["S3 bucket", () => new S3Storage({ ...s3StorageConfig(s3, `run-${crypto.randomUUID()}`) })],
];

beforeAll(async () => {
  s3 = await startS3Server();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "forage-storage-"));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

describe.each(implementations)("object storage contract: %s", (_name, make) => {
  it("puts, heads, reads whole and by range, lists and deletes", async () => {
    const storage = make();
    await storage.put("crawls/1/files/a", Buffer.from("hello, world"));
    await storage.put("crawls/1/files/b", Readable.from([Buffer.from("stream"), Buffer.from("ed")]));
    await storage.put("crawls/2/files/c", Buffer.from("other crawl"));
    expect(await storage.head("crawls/1/files/a")).toEqual({ bytes: 12 });
    expect(await storage.head("crawls/1/files/zzz")).toBeNull();
    expect((await storage.read("crawls/1/files/a")).toString()).toBe("hello, world");
    expect((await storage.read("crawls/1/files/a", { offset: 7, length: 5 })).toString()).toBe("world");
    expect(await text(await storage.get("crawls/1/files/b"))).toBe("streamed");
    expect(await storage.list("crawls/1")).toEqual([
      { key: "crawls/1/files/a", bytes: 12 },
      { key: "crawls/1/files/b", bytes: 8 },
    ]);
    await storage.delete("crawls/1/files/a");
    expect(await storage.head("crawls/1/files/a")).toBeNull();
    await storage.deletePrefix("crawls/1");
    expect(await storage.list("crawls/1")).toEqual([]);
    expect(await storage.list("crawls/2")).toEqual([{ key: "crawls/2/files/c", bytes: 11 }]);
  });

  it("a missing object is ObjectNotFoundError; keys leaving the storage are refused", async () => {
    const storage = make();
    await expect(storage.read("crawls/9/files/none")).rejects.toBeInstanceOf(ObjectNotFoundError);
    for (const bad of ["../etc/passwd", "/etc/passwd", "crawls/../../x", "crawls//x", ""]) {
      await expect(storage.read(bad)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(storage.put(bad, Buffer.from("x"))).rejects.toBeInstanceOf(InvalidKeyError);
    }
  });

  it("uploads a large file as a multipart upload and reads back every byte", async () => {
    const storage = make();
    const big = crypto.randomBytes(20 * 1024 * 1024 + 123);
    const file = path.join(scratch, `big-${crypto.randomUUID()}`);
    fs.writeFileSync(file, big);
    await storage.putFile("crawls/3/warc/big.warc.gz", file);
    expect(await storage.head("crawls/3/warc/big.warc.gz")).toEqual({ bytes: big.length });
    const back = await storage.read("crawls/3/warc/big.warc.gz");
    expect(crypto.createHash("sha256").update(back).digest("hex")).toBe(crypto.createHash("sha256").update(big).digest("hex"));
    const tail = await storage.read("crawls/3/warc/big.warc.gz", { offset: big.length - 1000, length: 1000 });
    expect(tail.equals(big.subarray(big.length - 1000))).toBe(true);
  });

  it("a growing file is readable from its parts before it is closed, and whole after", async () => {
    const storage = make();
    const local = path.join(scratch, `growing-${crypto.randomUUID()}`);
    const grow = new GrowingObject(storage, "crawls/4/warc/open.warc.gz", local);
    fs.writeFileSync(local, "first-");
    await grow.publishTail();
    fs.appendFileSync(local, "second-");
    await grow.publishTail();
    await grow.publishTail(); // nothing new: no empty part
    fs.appendFileSync(local, "third");
    expect((await readGrowingObject(storage, "crawls/4/warc/open.warc.gz")).toString()).toBe("first-second-");
    expect((await readGrowingObject(storage, "crawls/4/warc/open.warc.gz", { offset: 3, length: 7 })).toString()).toBe("st-seco");
    expect(await listGrowingObjects(storage, "crawls/4")).toEqual([{ key: "crawls/4/warc/open.warc.gz", bytes: 13 }]);
    await grow.publishWhole();
    expect(fs.existsSync(local)).toBe(false); // the storage's copy is the one read from now on
    expect(await text(await openGrowingObject(storage, "crawls/4/warc/open.warc.gz"))).toBe("first-second-third");
    expect(await storage.list("crawls/4")).toEqual([{ key: "crawls/4/warc/open.warc.gz", bytes: 18 }]);
    await expect(openGrowingObject(storage, "crawls/4/warc/none.warc.gz")).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it("a durable point after the whole upload adds nothing (the local file is gone) and leaves the object whole", async () => {
    const storage = make();
    const local = path.join(scratch, `closing-${crypto.randomUUID()}`);
    const grow = new GrowingObject(storage, "crawls/7/warc/closing.warc.gz", local);
    fs.writeFileSync(local, "records-");
    await grow.publishTail();
    fs.appendFileSync(local, "last");
    // The writer's close and a checkpoint's sync can queue in this order.
    const closing = grow.publishWhole();
    const lateTail = grow.publishTail();
    await closing;
    await lateTail;
    expect(fs.existsSync(local)).toBe(false);
    expect(await storage.list("crawls/7")).toEqual([{ key: "crawls/7/warc/closing.warc.gz", bytes: 12 }]);
    expect((await readGrowingObject(storage, "crawls/7/warc/closing.warc.gz")).toString()).toBe("records-last");
  });

  it("a reader that goes away mid-stream releases the part being read and opens no more", async () => {
    const storage = make();
    const partBytes = 512 * 1024;
    for (let offset = 0; offset < 3 * partBytes; offset += partBytes) {
      await storage.put(partKey("crawls/6/warc/open.warc.gz", offset), crypto.randomBytes(partBytes));
    }
    // The storage itself, watched: which parts were opened, and whether each stream was closed.
    const opened: Readable[] = [];
    const watched: ObjectStorage = Object.assign(Object.create(storage) as ObjectStorage, {
      get: async (key: string, range?: ByteRange) => {
        const stream = await storage.get(key, range);
        opened.push(stream);
        return stream;
      },
    });
    const reader = await openGrowingObject(watched, "crawls/6/warc/open.warc.gz");
    await new Promise((resolve) => reader.once("data", resolve));
    reader.destroy();
    // Without a way out, the writer side waits for a "drain" that never comes, holding the part
    // (for S3, its HTTP connection) until the socket times out.
    await pollUntil("the part being read closed", () => opened.map((s) => s.destroyed), (all) => all.length > 0 && all.every(Boolean), {
      timeoutMs: 5_000,
      pollMs: 10,
    });
    expect(opened).toHaveLength(1);
  });
});

describe("local folder storage", () => {
  it("keeps FORAGE_DATA_DIR's layout: a key is the file's relative path, a file in place is not copied", async () => {
    const root = fs.mkdtempSync(path.join(scratch, "layout-"));
    const storage = new LocalFolderStorage(root);
    fs.mkdirSync(path.join(root, "crawls/5/files"), { recursive: true });
    fs.writeFileSync(path.join(root, "crawls/5/files/abc"), "existing data");
    expect((await storage.read("crawls/5/files/abc")).toString()).toBe("existing data");
    await storage.putFile("crawls/5/files/abc", path.join(root, "crawls/5/files/abc"));
    expect(fs.readFileSync(path.join(root, "crawls/5/files/abc"), "utf8")).toBe("existing data");
    await storage.put("crawls/5/recrawl/changes.json.gz", Buffer.from("x"));
    expect(fs.existsSync(path.join(root, "crawls/5/recrawl/changes.json.gz"))).toBe(true);
  });
});
