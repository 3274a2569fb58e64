import { DomainError, InvalidStateError, NotFoundError } from "../../errors";
import { CLI_AUDIT } from "../../auth/audit-context";
import { addUser, deleteUser, findUserIdByEmail, updateUser, type UserPatch } from "../../auth/user-admin";
import { listUsers } from "../../auth/users";
import type { Db } from "../../store";
import { CliUsageError } from "../cli-error";
import { parseOptions } from "../parse-options";
import { readStdin, withAccountsDb } from "./accounts-session";

export const userHelp =
  "forage user add <email> [--admin] --password-stdin | list | disable|enable|delete <email> | reset-password <email> --password-stdin   manage the accounts that sign in to the dashboard";

/**
 * `forage user add <email> [--admin] --password-stdin`: the password is read from standard input
 * (never from an argument, which other users of the machine see in the process list).
 * `forage user list`: one line per user. `disable`, `enable`, `delete` and
 * `reset-password <email> --password-stdin` do what Settings → Users does, under the same rules
 * (never the last enabled admin), and are recorded in the audit log as done from the command line.
 */
export async function userCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === "add") return addOne(rest);
  if (action === "list") return listAllUsers(rest);
  if (action === "disable") return changeOne(rest, "disable", { disabled: true }, "Disabled");
  if (action === "enable") return changeOne(rest, "enable", { disabled: false }, "Enabled");
  if (action === "delete") return deleteOne(rest);
  if (action === "reset-password") return resetPassword(rest);
  const actions = "add, list, disable, enable, delete or reset-password";
  throw new CliUsageError(action ? `unknown action "${action}" (${actions})` : `say what to do: ${actions}`);
}

async function addOne(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { admin: { type: "boolean" }, "password-stdin": { type: "boolean" }, db: { type: "string" } }, { positionals: 1 });
  const email = positionals[0];
  if (!email) throw new CliUsageError("needs the user's email: forage user add <email> [--admin] --password-stdin");
  const password = await passwordFromStdin(values["password-stdin"], "user add");
  return withAccountsDb(values.db, async (db) =>
    asUsageErrors(email, async () => {
      const user = await addUser(db, { email, password, role: values.admin ? "admin" : "member" }, CLI_AUDIT);
      console.log(`Added ${user.role} ${user.email} (user ${user.id}).`);
      return 0;
    }),
  );
}

async function changeOne(argv: string[], verb: string, patch: UserPatch, done: string): Promise<number> {
  const { values, positionals } = parseOptions(argv, { db: { type: "string" } }, { positionals: 1 });
  const email = requireEmail(positionals[0], `forage user ${verb} <email>`);
  return withAccountsDb(values.db, async (db) =>
    asUsageErrors(email, async () => {
      const user = await updateUser(db, await findUserIdByEmail(db, email), patch, CLI_AUDIT);
      console.log(`${done} ${user.role} ${user.email} (user ${user.id}).${patch.disabled ? " Their sessions ended; their API tokens are refused while disabled." : ""}`);
      return 0;
    }),
  );
}

async function deleteOne(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { db: { type: "string" } }, { positionals: 1 });
  const email = requireEmail(positionals[0], "forage user delete <email>");
  return withAccountsDb(values.db, async (db) =>
    asUsageErrors(email, async () => {
      await deleteUser(db, await findUserIdByEmail(db, email), CLI_AUDIT);
      console.log(`Deleted ${email.trim().toLowerCase()}: their sessions and API tokens are gone; their crawls and harvests stay.`);
      return 0;
    }),
  );
}

async function resetPassword(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { "password-stdin": { type: "boolean" }, db: { type: "string" } }, { positionals: 1 });
  const email = requireEmail(positionals[0], "forage user reset-password <email> --password-stdin");
  const password = await passwordFromStdin(values["password-stdin"], `user reset-password ${email}`);
  return withAccountsDb(values.db, async (db: Db) =>
    asUsageErrors(email, async () => {
      const user = await updateUser(db, await findUserIdByEmail(db, email), { password }, CLI_AUDIT);
      console.log(`New password set for ${user.email}; their sessions ended.`);
      return 0;
    }),
  );
}

async function listAllUsers(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { db: { type: "string" } });
  return withAccountsDb(values.db, async (db) => {
    const users = await listUsers(db);
    if (users.length === 0) console.log("No users yet: forage user add <email> --admin --password-stdin");
    for (const user of users) console.log(`${user.id}\t${user.role}\t${user.email}\t${user.createdAt.toISOString()}${user.disabledAt ? "\tdisabled" : ""}`);
    return 0;
  });
}

function requireEmail(email: string | undefined, usage: string): string {
  if (!email) throw new CliUsageError(`needs the user's email: ${usage}`);
  return email;
}

async function passwordFromStdin(given: boolean | undefined, command: string): Promise<string> {
  if (!given) throw new CliUsageError(`give the password on standard input with --password-stdin, e.g. \`printf '%s' "$PASSWORD" | forage ${command} --password-stdin\``);
  return readStdin();
}

/** The API's refusals (weak password, unknown user, last admin) as one-line usage errors, exit code 2. */
async function asUsageErrors(email: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError && error.fields) {
      throw new CliUsageError(Object.entries(error.fields).map(([field, message]) => `${field === "email" ? email : field} ${message}`).join("; "));
    }
    if (error instanceof NotFoundError || error instanceof InvalidStateError) throw new CliUsageError(error.message);
    throw error;
  }
}
