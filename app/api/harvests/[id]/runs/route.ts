import { guarded } from "@/app/_server/guarded";
import { parseId } from "@/lib/api/ids";
import { jsonResponse } from "@/lib/api/responses";
import { addHarvestEvent, startHarvestRun } from "@/lib/harvest";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Runs the harvest now, after its latest finished run; 409 while a run is queued, running or paused. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const id = parseId((await params).id, "Harvest");
    const run = await startHarvestRun(db, id);
    await addHarvestEvent(db, id, "run-started", `Run started by hand: crawl ${run.crawlId}${run.after === null ? "" : ` after crawl ${run.after}`}`, run);
    return jsonResponse(run, { status: 201 });
  });
}
