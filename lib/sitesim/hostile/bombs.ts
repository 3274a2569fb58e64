/**
 * Compressed bombs for the hostile site: a few hundred bytes on the wire that decode to hundreds
 * of megabytes. Built by streaming 1 MiB blocks through the compressor, so building one never
 * holds its decoded size in memory (256 MiB: ≈ 0.5 s for gzip, 0.2 s for brotli).
 */
import zlib from "node:zlib";

const BLOCK = Buffer.alloc(1 << 20, 0x20); // spaces: inside an HTML body they are plain text

/** gzip (`coding` "gzip") or brotli ("br") of `prefix` followed by `mebibytes` MiB of spaces. */
export async function buildBomb(coding: "gzip" | "br", mebibytes: number, prefix = ""): Promise<Buffer> {
  const compressor =
    coding === "gzip" ? zlib.createGzip({ level: 9 }) : zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  const out: Buffer[] = [];
  compressor.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    compressor.on("end", resolve);
    compressor.on("error", reject);
  });
  if (prefix) compressor.write(prefix);
  for (let i = 0; i < mebibytes; i++) {
    if (!compressor.write(BLOCK)) await new Promise((resolve) => compressor.once("drain", resolve));
  }
  compressor.end();
  await done;
  return Buffer.concat(out);
}
