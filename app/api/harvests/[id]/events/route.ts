import { guarded } from "@/app/_server/guarded";
import { parseId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { eventsQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { getHarvestEvents } from "@/lib/harvest";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The harvest's log, newest first: runs started, skipped, caught up; webhook attempts. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const id = parseId((await params).id, "Harvest");
    const query = parseQuery(request, eventsQuery);
    return jsonResponse(await getHarvestEvents(db, id, query));
  });
}
