import { guarded } from "@/app/_server/guarded";
import { getDb } from "@/app/_server/db";
import { parseCrawlId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { eventsQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { getEventsPage } from "@/lib/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    const query = parseQuery(request, eventsQuery);
    return jsonResponse(await getEventsPage(await getDb(), id, query));
  });
}
