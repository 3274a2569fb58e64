import yauzl, { type Entry } from "yauzl";
import type { PreviewLimits } from "./preview-limits";
import { PreviewError } from "./preview-types";

/**
 * A ZIP's directory checked before anything inflates it (an XLSX is a ZIP): readable, at most
 * `maxZipEntries` entries, their claimed inflated sizes at most `maxInflatedBytes` together and
 * `maxInflateRatio` × their compressed sizes each (past 1 MiB). A zip bomb is refused here by what
 * it claims; one that lies about its sizes is stopped by the preview's time limit.
 * @returns the entry names
 */
export async function checkZipDirectory(bytes: Buffer, limits: PreviewLimits): Promise<string[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
  } catch (error) {
    throw new PreviewError(`not a readable XLSX (damaged or truncated ZIP): ${(error as Error).message.slice(0, 200)}`);
  }
  try {
    if (zip.entryCount > limits.maxZipEntries) throw new PreviewError(`${zip.entryCount} ZIP entries, over the ${limits.maxZipEntries} a previewed spreadsheet may hold`);
    const names: string[] = [];
    let inflated = 0;
    const iterator = zip.eachEntry();
    for (;;) {
      let next: IteratorResult<Entry>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw new PreviewError(`not a readable XLSX (damaged ZIP directory): ${(error as Error).message.slice(0, 200)}`);
      }
      if (next.done) break;
      const entry = next.value;
      names.push(entry.fileName);
      inflated += entry.uncompressedSize;
      if (inflated > limits.maxInflatedBytes) throw new PreviewError(`the spreadsheet inflates to over ${limits.maxInflatedBytes} bytes: too large to preview (a zip bomb?)`);
      if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize > limits.maxInflateRatio * Math.max(1, entry.compressedSize)) {
        throw new PreviewError(`${entry.fileName} inflates ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))}× its compressed size, over ${limits.maxInflateRatio}× (a zip bomb?)`);
      }
    }
    return names;
  } finally {
    zip.close();
  }
}
