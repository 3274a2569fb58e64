import fs from "node:fs";
import { rootUrlSchema } from "../../crawl-config";
import { ImportError, importWebArchive } from "../../archive/import-archive";
import { CliUsageError } from "../cli-error";
import { openCliSession } from "../cli-session";
import { parseOptions } from "../parse-options";

export const importHelp =
  "forage import <file.warc.gz|file.wacz> [--root URL] [--db URL] [--out DIR] [--json]\n" +
  "             a web archive made by any crawler (Heritrix, Browsertrix, wget --warc-file) as a finished crawl, for forage replay";

const options = {
  root: { type: "string" },
  db: { type: "string" },
  out: { type: "string" },
  json: { type: "boolean" },
} as const;

export function importArgs(argv: string[]): { file: string; rootUrl?: string; db?: string; out?: string; json: boolean } {
  const { values, positionals } = parseOptions(argv, options, { positionals: 1 });
  const file = positionals[0];
  if (file === undefined) throw new CliUsageError("missing <file>, e.g. forage import site.warc.gz");
  if (!fs.existsSync(file)) throw new CliUsageError(`no such file: ${file}`);
  let rootUrl: string | undefined;
  if (values.root !== undefined) {
    const parsed = rootUrlSchema.safeParse(values.root);
    if (!parsed.success) throw new CliUsageError(`--root ${parsed.error.issues[0]?.message ?? "is not a valid URL"}`);
    rootUrl = parsed.data;
  }
  return { file, rootUrl, db: values.db, out: values.out, json: values.json ?? false };
}

/** `forage import`: prints the new crawl's id (and a summary, or one JSON line with --json). */
export async function importCommand(argv: string[]): Promise<number> {
  const args = importArgs(argv);
  const session = await openCliSession(args);
  try {
    const result = await importWebArchive({ db: session.db, forage: session.forage, file: args.file, rootUrl: args.rootUrl }).catch((error: unknown) => {
      if (error instanceof ImportError) throw new CliUsageError(error.message);
      throw error;
    });
    if (args.json) console.log(JSON.stringify(result));
    else {
      console.error(
        `[forage] Imported ${args.file} as crawl ${result.crawlId}: ${result.requests} responses, ${result.pages} pages, ${result.targets} targets` +
          ` (${result.skipped} other records). Replay it with: forage replay ${result.crawlId} --strategy sb`,
      );
    }
    return 0;
  } finally {
    await session.close();
  }
}
