import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { downloadResponse } from "@/lib/api/download-response";
import { parseCrawlId } from "@/lib/api/ids";
import { streamManifestJson } from "@/lib/export";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The manifest alone, as JSON. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    return downloadResponse(await streamManifestJson(await getDb(), getServerConfig(), id));
  });
}
