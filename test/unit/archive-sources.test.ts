/** The WACZ reader refuses ZIP tricks yauzl leaves to its caller. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { archiveSources } from "../../lib/archive/archive-sources";
import { validWarc } from "../helpers/hostile-archives";
import { buildZip } from "../helpers/zip-builder";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-zip-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("archiveSources", () => {
  it("refuses an entry whose local header lies inside another entry's data (overlapping entries)", async () => {
    const warc = await validWarc({ gzip: true });
    const inner = buildZip([{ name: "archive/b.warc.gz", data: warc }]);
    const innerLocal = inner.subarray(0, 30 + "archive/b.warc.gz".length + warc.length);
    const file = path.join(dir, "overlap.wacz");
    fs.writeFileSync(file, buildZip([{ name: "archive/a.warc.gz", data: innerLocal }, { name: "archive/b.warc.gz", data: warc, localHeaderAt: 30 + "archive/a.warc.gz".length }]));
    await expect(archiveSources(file)).rejects.toThrow(/^overlap\.wacz: entries archive\/a\.warc\.gz and archive\/b\.warc\.gz share bytes$/);
  });

  it("lists the WARC entries of a valid WACZ by name", async () => {
    const warc = await validWarc({ gzip: true });
    const file = path.join(dir, "valid.wacz");
    fs.writeFileSync(file, buildZip([{ name: "archive/b.warc.gz", data: warc }, { name: "pages/pages.jsonl", data: Buffer.from("{}\n") }, { name: "archive/a.warc.gz", data: warc }]));
    const archive = await archiveSources(file);
    try {
      expect(archive.sources.map((s) => s.name)).toEqual(["valid.wacz: archive/a.warc.gz", "valid.wacz: archive/b.warc.gz"]);
      const chunks: Buffer[] = [];
      for await (const chunk of await archive.sources[0]!.open()) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(warc)).toBe(true);
    } finally {
      archive.close();
    }
  });
});
