import { guarded } from "@/app/_server/guarded";
import { getServerConfig } from "@/app/_server/db";
import { ApiRequestError } from "@/lib/api/errors";
import { parseCrawlId, parseId } from "@/lib/api/ids";
import { jsonResponse } from "@/lib/api/responses";
import { previewTarget, PreviewError } from "@/lib/preview";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A collected file's preview from its stored bytes: 200 `{ kind, … }`, or 422 `unpreviewable` with the reason. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string; targetId: string }> }): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const { id, targetId } = await params;
    const crawlId = parseCrawlId(id);
    const target = parseId(targetId, "Target");
    try {
      return jsonResponse(await previewTarget(db, getServerConfig(), crawlId, target));
    } catch (error) {
      if (error instanceof PreviewError) throw new ApiRequestError(422, "unpreviewable", `Target ${target} cannot be previewed: ${error.message}`);
      throw error;
    }
  });
}
