/**
 * An archive that cannot become a crawl: malformed, hostile (a ZIP or gzip bomb, a header line
 * without end, a name leaving the archive), or without anything to replay. The message is one
 * line naming the file, the entry or record, and what is wrong; `forage import` prints it and
 * exits 2. Control characters (an entry name may hold a newline) are escaped and the message
 * is cut, so a hostile name can neither forge a second line nor flood the terminal.
 */
export class ImportError extends Error {
  override name = "ImportError";

  constructor(message: string, options?: { cause?: unknown }) {
    super(oneLine(message), options);
  }
}

const MAX_MESSAGE_CHARS = 500;

function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return escaped.length > MAX_MESSAGE_CHARS ? `${escaped.slice(0, MAX_MESSAGE_CHARS - 1)}…` : escaped;
}

/** The error a reader threw, as an ImportError naming where it happened (kept as is if it already is one). */
export function importErrorAt(where: string, error: unknown): ImportError {
  if (error instanceof ImportError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ImportError(`${where}: ${message}`, { cause: error });
}
