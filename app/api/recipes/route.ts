import { guarded } from "@/app/_server/guarded";
import { getServerConfig } from "@/app/_server/db";
import { jsonResponse } from "@/lib/api/responses";
import { recipesInForce } from "@/lib/recipes/recipes-in-force";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The recipes crawls run with (docs/RECIPES.md): what the crawl form offers in "Application". */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async () => jsonResponse(recipesInForce(getServerConfig().recipesDir)));
}
