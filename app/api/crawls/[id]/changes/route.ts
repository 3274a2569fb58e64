import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { NotFoundError } from "@/lib/errors";
import { parseCrawlId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { changesQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { getCrawlChanges } from "@/lib/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** What changed since the crawl's `after` (all new for a first crawl): counts and files, `?change=new|changed|unchanged|gone`. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    const query = parseQuery(request, changesQuery);
    const changes = await getCrawlChanges(await getDb(), getServerConfig().dataDir, id, query);
    if (!changes) throw new NotFoundError(`Change report of crawl ${id}`, `Crawl ${id} has no change report yet: it is written when the crawl finishes`);
    return jsonResponse(changes);
  });
}
