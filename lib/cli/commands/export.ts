import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DomainError, ServiceBusyError } from "../../errors";
import { streamWaczExport } from "../../archive/wacz-export";
import { formatBytes } from "../../format";
import { CliUsageError } from "../cli-error";
import { openCliSession } from "../cli-session";
import { parseOptions } from "../parse-options";

export const exportHelp =
  "forage export <crawlId> --wacz FILE [--db URL] [--out DIR]\n" +
  "             the crawl's web archive as a WACZ 1.1.1 file (WARC files, CDXJ index, pages, datapackage)";

const options = {
  wacz: { type: "string" },
  db: { type: "string" },
  out: { type: "string" },
} as const;

export interface ExportArgs {
  crawlId: number;
  waczFile: string;
  db?: string;
  out?: string;
}

export function exportArgs(argv: string[]): ExportArgs {
  const { values, positionals } = parseOptions(argv, options, { positionals: 1 });
  const rawId = positionals[0];
  if (rawId === undefined) throw new CliUsageError("missing <crawlId>, e.g. forage export 12 --wacz crawl-12.wacz");
  if (!/^\d+$/.test(rawId.trim()) || Number(rawId) < 1 || !Number.isSafeInteger(Number(rawId))) {
    throw new CliUsageError(`<crawlId> must be a crawl number, got "${rawId}"`);
  }
  const waczFile = values.wacz?.trim();
  if (!waczFile) throw new CliUsageError("missing --wacz FILE (the WACZ file to write)");
  return { crawlId: Number(rawId), waczFile, db: values.db, out: values.out };
}

/**
 * `forage export`: writes the crawl's WACZ to a file (to a temporary name first, renamed when
 * complete, so a failed export never leaves a file that looks whole).
 */
export async function exportCommand(argv: string[]): Promise<number> {
  const args = exportArgs(argv);
  const session = await openCliSession(args);
  const target = path.resolve(args.waczFile);
  const partial = `${target}.partial`;
  const started = Date.now();
  try {
    const download = await streamWaczExport(session.db, session.forage, args.crawlId).catch((error: unknown) => {
      if (error instanceof DomainError && !(error instanceof ServiceBusyError)) throw new CliUsageError(error.message);
      throw error;
    });
    await pipeline(Readable.fromWeb(download.stream as import("node:stream/web").ReadableStream<Uint8Array>), fs.createWriteStream(partial));
    await fs.promises.rename(partial, target);
    const bytes = (await fs.promises.stat(target)).size;
    console.error(`[forage] Wrote ${target} (${formatBytes(bytes)}) in ${Date.now() - started} ms`);
    return 0;
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  } finally {
    await session.close();
  }
}
