import { auditContext } from "@/app/_server/audit-context";
import { guarded } from "@/app/_server/guarded";
import { parseJsonBody } from "@/lib/api/body";
import { jsonResponse } from "@/lib/api/responses";
import { addUser } from "@/lib/auth/user-admin";
import { listUsers, ROLES } from "@/lib/auth/users";
import { z } from "zod";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The server's users (admins only). */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => jsonResponse({ users: await listUsers(db) }), { admin: true });
}

const newUserBody = z.strictObject({ email: z.string().max(254), password: z.string().max(1024), role: z.enum(ROLES).default("member") });

/** Adds a user (admins only). */
export async function POST(request: Request): Promise<Response> {
  return guarded(
    request,
    async (principal, db) => jsonResponse({ user: await addUser(db, await parseJsonBody(request, newUserBody), auditContext(principal, request)) }, { status: 201 }),
    { admin: true },
  );
}
