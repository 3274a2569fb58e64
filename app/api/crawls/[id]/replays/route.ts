import { guarded } from "@/app/_server/guarded";
import { parseJsonBody } from "@/lib/api/body";
import { parseCrawlId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { noQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { createReplays, createReplaysSchema } from "@/lib/store/commands/create-replays";
import { getCrawlReplays } from "@/lib/store/queries/get-crawl-replays";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The crawl's replay family: its source (when it is a replay) and every replay of that source. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const id = parseCrawlId((await params).id);
    parseQuery(request, noQuery);
    return jsonResponse(await getCrawlReplays(db, id));
  });
}

/** `{ strategies, seed? }` → queued replays of the (finished) crawl, one per strategy, run by the worker. */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const id = parseCrawlId((await params).id);
    const body = await parseJsonBody(request, createReplaysSchema);
    return jsonResponse(await createReplays(db, id, body, { createdById: principal.user.id }), { status: 201 });
  });
}
