import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { downloadResponse } from "@/lib/api/download-response";
import { parseCrawlId } from "@/lib/api/ids";
import { streamWaczExport } from "@/lib/archive/wacz-export";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The crawl's web archive as one streamed WACZ (409 when it kept none). */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    return downloadResponse(await streamWaczExport(await getDb(), getServerConfig(), id));
  });
}
