import { auditContext } from "@/app/_server/audit-context";
import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { readJsonBody } from "@/lib/api/body";
import { parseCrawlId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { noQuery } from "@/lib/api/query-schemas";
import { jsonResponse, noContentResponse } from "@/lib/api/responses";
import { deleteCrawl, getCrawl, updateLiveSettings } from "@/lib/store";
import { crawlForViewer } from "@/lib/store/queries/crawl-for-viewer";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The crawl's detail; the worker holding it (host name and PID) only for admins. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (principal) => {
    const id = parseCrawlId((await params).id);
    parseQuery(request, noQuery);
    return jsonResponse(crawlForViewer(await getCrawl(await getDb(), id), principal.user));
  });
}

/** Live-editable settings only: blocklist.urlPatterns, politeness.delayMs. */
export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    const body = await readJsonBody(request);
    return jsonResponse(await updateLiveSettings(await getDb(), id, body));
  });
}

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const id = parseCrawlId((await params).id);
    await deleteCrawl(db, getServerConfig(), id, auditContext(principal, request));
    return noContentResponse();
  });
}
