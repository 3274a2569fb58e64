import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { readJsonBody } from "@/lib/api/body";
import { parseQuery } from "@/lib/api/query";
import { listCrawlsQuery } from "@/lib/api/query-schemas";
import { jsonResponse } from "@/lib/api/responses";
import { createCrawl, getServerPrivateNetworks, listCrawls } from "@/lib/store";
import { recipesInForce } from "@/lib/recipes/recipes-in-force";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The crawl list, newest first. */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async () => {
    const query = parseQuery(request, listCrawlsQuery);
    return jsonResponse({ crawls: await listCrawls(await getDb(), query) });
  });
}

/** Creates a queued crawl; the settings are validated by lib/crawler/crawl-config.ts, the root URL against the server's network policy. */
export async function POST(request: Request): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const body = await readJsonBody(request);
    const privateNetworks = await getServerPrivateNetworks(db, getServerConfig().privateNetworks);
    const knownRecipeIds = recipesInForce(getServerConfig().recipesDir).recipes.map((recipe) => recipe.id);
    return jsonResponse(await createCrawl(db, body, { createdById: principal.user.id, networkPolicy: { privateNetworks }, knownRecipeIds }), { status: 201 });
  });
}
