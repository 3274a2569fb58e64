/** A user mistake on the command line: printed as one line, exit code 2, no stack trace. */
export class CliUsageError extends Error {
  override name = "CliUsageError";
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
