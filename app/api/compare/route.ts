import { z } from "zod";
import { guarded } from "@/app/_server/guarded";
import { intParam } from "@/lib/api/query";
import { parseQuery } from "@/lib/api/query";
import { jsonResponse } from "@/lib/api/responses";
import { DEFAULT_COMPARE_POINTS, getCrawlComparison, MAX_COMPARED_CRAWLS } from "@/lib/store/queries/get-crawl-comparison";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `ids=12,13,14`: 1 to MAX_COMPARED_CRAWLS crawl numbers, each once. */
const idsParam = z
  .string()
  .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, "must be crawl numbers separated by commas, e.g. 12,13,14")
  .transform((text) => text.split(",").map(Number))
  .refine((ids) => ids.every((id) => id <= 2 ** 31 - 1), "must be crawl numbers")
  .refine((ids) => new Set(ids).size === ids.length, "must name each crawl once")
  .refine((ids) => ids.length <= MAX_COMPARED_CRAWLS, `must name at most ${MAX_COMPARED_CRAWLS} crawls`);

const compareQuery = z.strictObject({
  ids: idsParam,
  maxPoints: intParam(2, 100_000).default(DEFAULT_COMPARE_POINTS),
});

/** Curves and table of several crawls of one site (the Compare view; its CSV export asks for every point). */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const query = parseQuery(request, compareQuery);
    return jsonResponse(await getCrawlComparison(db, query.ids, { maxPoints: query.maxPoints }));
  });
}
