import { ApiRequestError } from "../../api/errors";
import { createUser, listUsers } from "../../auth/users";
import { CliUsageError } from "../cli-error";
import { parseOptions } from "../parse-options";
import { readStdin, withAccountsDb } from "./accounts-session";

export const userHelp =
  "forage user add <email> [--admin] --password-stdin | forage user list   manage the accounts that sign in to the dashboard";

/**
 * `forage user add <email> [--admin] --password-stdin`: the password is read from standard input
 * (never from an argument, which other users of the machine see in the process list).
 * `forage user list`: one line per user.
 */
export async function userCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === "add") return addUser(rest);
  if (action === "list") return listAllUsers(rest);
  throw new CliUsageError(action ? `unknown action "${action}" (add or list)` : "say what to do: add or list");
}

async function addUser(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { admin: { type: "boolean" }, "password-stdin": { type: "boolean" }, db: { type: "string" } }, { positionals: 1 });
  const email = positionals[0];
  if (!email) throw new CliUsageError("needs the user's email: forage user add <email> [--admin] --password-stdin");
  if (!values["password-stdin"]) throw new CliUsageError("give the password on standard input with --password-stdin, e.g. `printf '%s' \"$PASSWORD\" | forage user add …`");
  const password = await readStdin();
  return withAccountsDb(values.db, async (db) => {
    try {
      const user = await createUser(db, { email, password, role: values.admin ? "admin" : "member" });
      console.log(`Added ${user.role} ${user.email} (user ${user.id}).`);
      return 0;
    } catch (error) {
      if (error instanceof ApiRequestError && error.fields) {
        throw new CliUsageError(Object.entries(error.fields).map(([field, message]) => `${field === "email" ? email : field} ${message}`).join("; "));
      }
      throw error;
    }
  });
}

async function listAllUsers(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { db: { type: "string" } });
  return withAccountsDb(values.db, async (db) => {
    const users = await listUsers(db);
    if (users.length === 0) console.log("No users yet: forage user add <email> --admin --password-stdin");
    for (const user of users) console.log(`${user.id}\t${user.role}\t${user.email}\t${user.createdAt.toISOString()}`);
    return 0;
  });
}
