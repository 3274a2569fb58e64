import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { readJsonBody } from "@/lib/api/body";
import { parseQuery } from "@/lib/api/query";
import { noQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { getServerPrivateNetworks } from "@/lib/store";
import { createHarvest, listHarvests } from "@/lib/store/harvests";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every harvest with its runs, newest first. */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async () => {
    parseQuery(request, noQuery);
    return jsonResponse({ harvests: await listHarvests(await getDb()) });
  });
}

/** Creates a harvest from a finished crawl (`fromCrawlId`) or crawl settings (`config`); `runNow` queues its next run. */
export async function POST(request: Request): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const body = await readJsonBody(request);
    const privateNetworks = await getServerPrivateNetworks(db, getServerConfig().privateNetworks);
    return jsonResponse(await createHarvest(db, body, { createdById: principal.user.id, privateNetworks }), { status: 201 });
  });
}
