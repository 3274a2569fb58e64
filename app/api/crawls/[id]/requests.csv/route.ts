import { guarded } from "@/app/_server/guarded";
import { getDb } from "@/app/_server/db";
import { downloadResponse } from "@/lib/api/download-response";
import { parseCrawlId } from "@/lib/api/ids";
import { streamRequestLogCsv } from "@/lib/export";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The whole request log as CSV, streamed. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    return downloadResponse(await streamRequestLogCsv(await getDb(), id));
  });
}
