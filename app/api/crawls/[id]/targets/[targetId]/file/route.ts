import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { downloadResponse } from "@/lib/api/download-response";
import { parseCrawlId, parseId } from "@/lib/api/ids";
import { openTargetFile } from "@/lib/export";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One collected file, as an attachment with its stored Content-Type. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string; targetId: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const { id, targetId } = await params;
    const crawlId = parseCrawlId(id);
    const target = parseId(targetId, "Target");
    return downloadResponse(await openTargetFile(await getDb(), getServerConfig(), crawlId, target));
  });
}
