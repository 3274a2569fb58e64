import { guarded } from "@/app/_server/guarded";
import { getServerConfig } from "@/app/_server/db";
import { jsonResponse } from "@/lib/api/responses";
import { listWorkers } from "@/lib/store/queries/list-workers";
import { describeStorage } from "@/lib/storage/storage-for";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The crawl workers of this database: identity, health (heartbeat) and the crawls each holds; and
 * where crawled bytes are stored. Admins only: host names, PIDs and storage locations map the
 * infrastructure, which a member's work does not need.
 */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => {
    const config = getServerConfig();
    return jsonResponse({ workers: await listWorkers(db, { leaseMs: config.workerLeaseMs }), storage: describeStorage(config.storage) });
  }, { admin: true });
}
