import { createApiToken } from "../../lib/auth/api-tokens";
import { createSession } from "../../lib/auth/sessions";
import { createUser, type Role, type UserView } from "../../lib/auth/users";
import type { Db } from "../../lib/store";

export interface TestAccount {
  user: UserView;
  password: string;
  /** A bearer token of this user. */
  token: string;
  /** A session cookie's value of this user. */
  session: string;
}

/** A user with a password, an API token and a signed-in session, created the way the product creates them. */
export async function createTestAccount(db: Db, { email = "admin@forage.test", role = "admin" as Role } = {}): Promise<TestAccount> {
  const password = `pw-${email}-0123456789`;
  const user = await createUser(db, { email, password, role });
  const { token } = await createApiToken(db, user.id, "tests");
  const { secret } = await createSession(db, user.id);
  return { user, password, token, session: secret };
}
