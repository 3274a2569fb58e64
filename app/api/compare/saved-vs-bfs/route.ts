import { z } from "zod";
import { guarded } from "@/app/_server/guarded";
import { parseQuery } from "@/lib/api/query";
import { jsonResponse } from "@/lib/api/responses";
import { getSavedVsBfs } from "@/lib/store/queries/get-saved-vs-bfs";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const savedQuery = z.strictObject({
  crawl: z.string().regex(/^[1-9]\d{0,9}$/, "must be a crawl number").transform(Number).pipe(z.number().max(2 ** 31 - 1, "must be a crawl number")),
});

/** `{ savedVsBfs }`: requests a crawl saved against a breadth-first run of its site to reach 90 % of the targets (null: no BFS run). */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const { crawl } = parseQuery(request, savedQuery);
    return jsonResponse({ savedVsBfs: await getSavedVsBfs(db, crawl) });
  });
}
