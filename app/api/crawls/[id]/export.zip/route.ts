import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { downloadResponse } from "@/lib/api/download-response";
import { parseCrawlId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { exportZipQuery } from "@/lib/api/query-schemas";
import { streamZipExport } from "@/lib/export";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every target file and the manifest as one streamed ZIP; `?changes=new,changed` keeps the new and changed files only. */
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async () => {
    const id = parseCrawlId((await params).id);
    const { changes } = parseQuery(request, exportZipQuery);
    return downloadResponse(await streamZipExport(await getDb(), getServerConfig(), id, { changes }));
  });
}
