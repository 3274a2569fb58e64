import { guarded } from "@/app/_server/guarded";
import { getDb } from "@/app/_server/db";
import { parseCrawlId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { requestsQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { getRequestsPage } from "@/lib/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    const query = parseQuery(request, requestsQuery);
    return jsonResponse(await getRequestsPage(await getDb(), id, query));
  });
}
