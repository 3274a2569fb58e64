import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { readJsonBody } from "@/lib/api/body";
import { parseId } from "@/lib/api/ids";
import { parseQuery } from "@/lib/api/query";
import { noQuery } from "@/lib/api/query-schemas";
import { jsonResponse, noContentResponse } from "@/lib/api/responses";
import { getServerPrivateNetworks } from "@/lib/store";
import { deleteHarvest, getHarvest, updateHarvest } from "@/lib/store/harvests";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async () => {
    const id = parseId((await params).id, "Harvest");
    parseQuery(request, noQuery);
    return jsonResponse(await getHarvest(await getDb(), id));
  });
}

/** Name, schedule (`cron`, `timeZone`), `webhookUrl`, `paused`, `checkKnownFiles`. */
export async function PATCH(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const id = parseId((await params).id, "Harvest");
    const body = await readJsonBody(request);
    const privateNetworks = await getServerPrivateNetworks(db, getServerConfig().privateNetworks);
    return jsonResponse(await updateHarvest(db, id, body, { privateNetworks }));
  });
}

/** Deletes the harvest; its runs stay as plain crawls. */
export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const id = parseId((await params).id, "Harvest");
    await deleteHarvest(db, id);
    return noContentResponse();
  });
}
