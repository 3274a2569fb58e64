import { guarded } from "@/app/_server/guarded";
import { jsonResponse } from "@/lib/api/responses";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Who the credentials belong to. */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (principal) => jsonResponse({ user: principal.user, via: principal.via }));
}
