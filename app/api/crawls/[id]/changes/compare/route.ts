import { guarded } from "@/app/_server/guarded";
import { getServerConfig } from "@/app/_server/db";
import { InvalidRequestError } from "@/lib/errors";
import { parseCrawlId } from "@/lib/api/ids";
import { jsonResponse } from "@/lib/api/responses";
import { compareVersions } from "@/lib/preview";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `?url=…`: what changed in that file of the crawl's change report, from its two stored versions. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const crawlId = parseCrawlId((await params).id);
    const url = new URL(request.url).searchParams.get("url");
    if (!url || url.length > 8192) throw new InvalidRequestError({ url: "the file's URL is required (at most 8192 characters)" });
    return jsonResponse(await compareVersions(db, getServerConfig(), crawlId, url));
  });
}
