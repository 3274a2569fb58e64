import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { readJsonBody } from "@/lib/api/body";
import { parseQuery } from "@/lib/api/query";
import { noQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { getServerPrivateNetworks } from "@/lib/store";
import { createHarvest, harvestForViewer, listHarvests } from "@/lib/harvest";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every harvest with its runs, newest first; webhook secrets only to admins and each harvest's creator. */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (principal) => {
    parseQuery(request, noQuery);
    const harvests = await listHarvests(await getDb());
    return jsonResponse({ harvests: harvests.map((harvest) => harvestForViewer(harvest, principal.user)) });
  });
}

/** Creates a harvest from a finished crawl (`fromCrawlId`) or crawl settings (`config`); `runNow` queues its next run. */
export async function POST(request: Request): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const body = await readJsonBody(request);
    const privateNetworks = await getServerPrivateNetworks(db, getServerConfig().privateNetworks);
    return jsonResponse(harvestForViewer(await createHarvest(db, body, { createdById: principal.user.id, privateNetworks }), principal.user), { status: 201 });
  });
}
