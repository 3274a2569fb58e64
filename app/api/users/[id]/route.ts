import { auditContext } from "@/app/_server/audit-context";
import { guarded } from "@/app/_server/guarded";
import { parseJsonBody } from "@/lib/api/body";
import { parseId } from "@/lib/api/ids";
import { jsonResponse, noContentResponse } from "@/lib/api/responses";
import { deleteUser, updateUser, userPatchSchema } from "@/lib/auth/user-admin";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** `{ disabled }`, `{ role }` or `{ password }` (a reset; the user's sessions end). Admins only; never one's own account or the last admin. */
export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return guarded(
    request,
    async (principal, db) => {
      const id = parseId((await params).id, "User");
      const patch = await parseJsonBody(request, userPatchSchema);
      return jsonResponse({ user: await updateUser(db, id, patch, auditContext(principal, request)) });
    },
    { admin: true },
  );
}

/** Deletes the user, their sessions and tokens; their crawls and harvests stay. Admins only; never oneself or the last admin. */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return guarded(
    request,
    async (principal, db) => {
      await deleteUser(db, parseId((await params).id, "User"), auditContext(principal, request));
      return noContentResponse();
    },
    { admin: true },
  );
}
