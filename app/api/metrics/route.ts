import { getDb, getSameOrigin, getServerConfig } from "@/app/_server/db";
import { handle } from "@/lib/api/handle";
import { authorizeMetricsRequest } from "@/lib/observability/metrics-access";
import { scrapeMetrics } from "@/lib/observability/metrics-exposition";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Prometheus metrics (text format): crawls, requests, targets, bytes, queue, webhooks and
 * workers from the database, the dashboard's HTTP latency and Node's own. Read with
 * FORAGE_METRICS_TOKEN or an admin's credentials (lib/observability/metrics-access.ts).
 */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const config = getServerConfig();
    await authorizeMetricsRequest(request, getSameOrigin(), config.metricsToken, getDb);
    const { contentType, body } = await scrapeMetrics(await getDb(), { leaseMs: config.workerLeaseMs });
    return new Response(body, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  });
}
