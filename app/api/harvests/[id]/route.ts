import { auditContext } from "@/app/_server/audit-context";
import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { readJsonBody } from "@/lib/api/body";
import { parseId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { noQuery } from "@/lib/api/query-schemas";
import { jsonResponse, noContentResponse } from "@/lib/api/responses";
import { getServerPrivateNetworks } from "@/lib/store";
import { deleteHarvest, getHarvest, harvestForViewer, updateHarvest } from "@/lib/harvest";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** The harvest and its runs; the webhook secret only to admins and its creator. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (principal) => {
    const id = parseId((await params).id, "Harvest");
    parseQuery(request, noQuery);
    return jsonResponse(harvestForViewer(await getHarvest(await getDb(), id), principal.user));
  });
}

/** Name, schedule (`cron`, `timeZone`), `webhookUrl`, `paused`, `checkKnownFiles`. */
export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const id = parseId((await params).id, "Harvest");
    const body = await readJsonBody(request);
    const privateNetworks = await getServerPrivateNetworks(db, getServerConfig().privateNetworks);
    return jsonResponse(harvestForViewer(await updateHarvest(db, id, body, { privateNetworks }), principal.user));
  });
}

/** Deletes the harvest; its runs stay as plain crawls. */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const id = parseId((await params).id, "Harvest");
    await deleteHarvest(db, id, auditContext(principal, request));
    return noContentResponse();
  });
}
