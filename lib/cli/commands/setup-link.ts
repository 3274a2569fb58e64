import { issueSetupLink } from "../../auth/setup-link";
import { parseOptions } from "../parse-options";
import { withAccountsDb } from "./accounts-session";

/**
 * `forage setup-link` (internal, run by `npm start`): while the server has no user, prints a
 * one-time link that creates the first admin; prints nothing once a user exists.
 */
export async function setupLinkCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { db: { type: "string" } });
  return withAccountsDb(values.db, async (db, forage) => {
    const secret = await issueSetupLink(db);
    if (secret) {
      console.log(`[forage] No account yet. Open this one-time link to create the admin (valid 24 h):`);
      console.log(`[forage]   ${forage.publicOrigin}/setup?token=${secret}`);
    }
    return 0;
  });
}
