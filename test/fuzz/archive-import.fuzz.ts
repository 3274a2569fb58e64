/**
 * `forage import`'s readers under fuzzing, without a database: the WACZ's ZIP reader
 * (`archiveSources`) and the import's WARC record reading (`archive-records`: the three passes,
 * bodies decoded) over archives held in memory. The invariant: an archive either reads (a list
 * of sources, rows) or is refused with an ImportError carrying a one-line message; any other
 * exception, a hang, or memory growing past the bound is a bug. The limits are shrunk so that
 * small inputs reach them.
 */
import fc from "fast-check";
import { ARCHIVE_LIMITS, type ArchiveLimits } from "../../lib/archive/archive-limits";
import { archivedResponses, firstHtmlPage, requestMethods } from "../../lib/archive/archive-records";
import { archiveSources } from "../../lib/archive/archive-sources";
import { ImportError } from "../../lib/archive/import-error";
import { archiveCorpus, waczBytes, warcBytes } from "./archive-inputs";
import type { FuzzTarget } from "./fuzz-target";

const LIMITS: ArchiveLimits = { ...ARCHIVE_LIMITS, zipEntries: 16, headerLineBytes: 2048, recordHeadBytes: 8192 };
const MAX_BODY_BYTES = 64 * 1024;
/** What one entry may inflate to here: under the bomb floor, yauzl holds it to its claimed size. */
const MAX_ENTRY_BYTES = ARCHIVE_LIMITS.zipInflateFloorBytes * LIMITS.zipInflateRatio;

/** Passes when `work` resolves or rejects with a one-line ImportError; rethrows anything else. */
async function refusedCleanlyOrRead(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    if (error.message.length === 0 || error.message.includes("\n")) throw new Error(`an ImportError without a one-line message: ${JSON.stringify(error.message)}`);
  }
}

/** The import's reading of an archive, all three passes, as `importWebArchive` runs them before its database writes. */
async function readLikeImport(name: string, bytes: Buffer): Promise<number> {
  const archive = await archiveSources(name, { bytes, limits: LIMITS });
  try {
    const methods = await requestMethods(archive.sources, LIMITS);
    await firstHtmlPage(archive.sources, LIMITS);
    let rows = 0;
    for await (const row of archivedResponses(archive.sources, methods, MAX_BODY_BYTES, LIMITS)) {
      if (row?.body && row.body.length > MAX_BODY_BYTES) throw new Error(`a body of ${row.body.length} bytes passed the ${MAX_BODY_BYTES}-byte limit`);
      rows += 1;
    }
    return rows;
  } finally {
    archive.close();
  }
}

/** The ZIP reader alone: the sources it lists, each stream read to its end. */
async function readZipSources(bytes: Buffer): Promise<void> {
  const archive = await archiveSources("fuzz.wacz", { bytes, limits: LIMITS });
  try {
    for (const source of archive.sources) {
      let read = 0;
      for await (const chunk of await source.open()) {
        read += (chunk as Buffer).length;
        if (read > MAX_ENTRY_BYTES) throw new Error(`${source.name} inflated past ${MAX_ENTRY_BYTES} bytes`);
      }
    }
  } finally {
    archive.close();
  }
}

function target(name: string, ciRuns: number, input: (c: Awaited<ReturnType<typeof archiveCorpus>>) => fc.Arbitrary<Buffer>, check: (bytes: Buffer) => Promise<unknown>): FuzzTarget {
  return {
    name,
    ciRuns,
    // One input holds a few MiB at most (an entry inflates to ≤ 1 MiB, a body ≤ 64 KiB, a head ≤ 8 KiB);
    // the rest is garbage awaiting collection.
    memoryBoundMiB: 96,
    async run(runs, seed) {
      const corpus = await archiveCorpus();
      let inputs = 0;
      await fc.assert(
        fc.asyncProperty(input(corpus), async (bytes) => {
          // In-memory streams resolve on microtasks only: yield now and then so timers (a
          // runner's memory sampler, a test timeout) still fire.
          if (++inputs % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
          await refusedCleanlyOrRead(() => check(bytes));
        }),
        { numRuns: runs, seed },
      );
    },
  };
}

export const fuzzTargets: FuzzTarget[] = [
  target("WACZ ZIP reader (archiveSources, entries read out)", 1200, waczBytes, readZipSources),
  target("WACZ import reading (ZIP, then WARC records)", 600, waczBytes, (bytes) => readLikeImport("fuzz.wacz", bytes)),
  target("WARC / WARC.gz import reading (records, HEAD pairing, bodies)", 1200, warcBytes, (bytes) => readLikeImport("fuzz.warc", bytes)),
];
