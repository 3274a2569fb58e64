import { DomainError, NotFoundError } from "../../errors";
import { parseId } from "../../api/ids";
import { createApiToken, revokeApiToken } from "../../auth/api-tokens";
import { CLI_AUDIT } from "../../auth/audit-context";
import { findUserByEmail } from "../../auth/users";
import { CliUsageError } from "../cli-error";
import { parseOptions } from "../parse-options";
import { withAccountsDb } from "./accounts-session";

export const tokenHelp =
  "forage token create --user <email> --name <label> | forage token revoke <id>   API tokens for scripts (Authorization: Bearer …)";

/**
 * `forage token create --user <email> --name <label>` prints the token alone as the last line
 * of standard output (so `TOKEN=$(forage token create … | tail -n 1)` works); it is shown once,
 * only its hash is kept. `forage token revoke <id>` revokes one at once.
 */
export async function tokenCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === "create") return create(rest);
  if (action === "revoke") return revoke(rest);
  throw new CliUsageError(action ? `unknown action "${action}" (create or revoke)` : "say what to do: create or revoke");
}

async function create(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { user: { type: "string" }, name: { type: "string" }, db: { type: "string" } });
  if (!values.user) throw new CliUsageError("needs --user <email>: the account the token acts as");
  if (!values.name) throw new CliUsageError('needs --name <label>, e.g. --name "nightly export"');
  const { user: email, name } = values;
  return withAccountsDb(values.db, async (db) => {
    const user = await findUserByEmail(db, email);
    if (!user) throw new CliUsageError(`no user ${email} (forage user list shows them)`);
    try {
      const { token, view } = await createApiToken(db, user.id, name, CLI_AUDIT);
      console.log(`Created API token ${view.id} "${view.name}" for ${user.email}. It is shown once; keep it secret:`);
      console.log(token);
      return 0;
    } catch (error) {
      if (error instanceof DomainError && error.fields?.name) throw new CliUsageError(`--name ${error.fields.name}`);
      throw error;
    }
  });
}

async function revoke(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { db: { type: "string" } }, { positionals: 1 });
  let id: number;
  try {
    id = parseId(positionals[0], "API token");
  } catch {
    throw new CliUsageError(`needs the token's id (a whole number, shown by the Settings page), got "${positionals[0] ?? ""}"`);
  }
  return withAccountsDb(values.db, async (db) => {
    try {
      const view = await revokeApiToken(db, id, new Date(), CLI_AUDIT);
      console.log(`Revoked API token ${view.id} "${view.name}" of ${view.userEmail}.`);
      return 0;
    } catch (error) {
      if (error instanceof NotFoundError) throw new CliUsageError(error.message);
      throw error;
    }
  });
}
