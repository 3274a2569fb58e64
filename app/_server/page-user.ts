import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { sessionUser } from "@/lib/auth/sessions";
import type { UserView } from "@/lib/auth/users";
import { sessionCookieName } from "@/lib/api/session-cookie";
import { getDb, getSameOrigin } from "./db";

/** The user signed in by this browser's session cookie, or null. */
export async function getPageUser(): Promise<UserView | null> {
  const secret = (await cookies()).get(sessionCookieName(getSameOrigin().secure))?.value;
  if (!secret) return null;
  try {
    return await sessionUser(await getDb(), secret);
  } catch {
    return null; // the database is not ready: the page itself shows why
  }
}

/** The signed-in user; anyone else goes to the sign-in page and comes back to `returnTo` after. */
export async function requirePageUser(returnTo = "/"): Promise<UserView> {
  const user = await getPageUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(returnTo)}`);
  return user;
}

/** An admin; a member sees the crawl list instead. */
export async function requirePageAdmin(returnTo: string): Promise<UserView> {
  const user = await requirePageUser(returnTo);
  if (user.role !== "admin") redirect("/");
  return user;
}
