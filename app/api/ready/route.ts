import { getDb, getSameOrigin, getServerConfig } from "@/app/_server/db";
import { handle } from "@/lib/api/handle";
import { InvalidRequestError } from "@/lib/errors";
import { jsonResponse } from "@/lib/api/responses";
import { checkReadiness, type ReadinessProbes } from "@/lib/observability/readiness";
import { readinessProbes } from "@/lib/observability/readiness-probes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Each check's deadline: well under an orchestrator's usual probe timeout. */
const CHECK_TIMEOUT_MS = 2_000;

let probes: ReadinessProbes | undefined;

/**
 * Readiness: the database and the storage answer (200 `ready`, else 503 `not-ready` naming the
 * failed checks). A fresh worker heartbeat is reported, and decides only with `?worker=required`
 * (lib/observability/readiness.ts says why). No credentials; the Host is checked.
 */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    getSameOrigin().checkHost(request);
    const worker = new URL(request.url).searchParams.get("worker");
    if (worker !== null && worker !== "required" && worker !== "optional") throw new InvalidRequestError({ worker: "must be required or optional" });
    const config = getServerConfig();
    probes ??= readinessProbes(getDb, { dataDir: config.dataDir, config: config.storage });
    const readiness = await checkReadiness(probes, { timeoutMs: CHECK_TIMEOUT_MS, leaseMs: config.workerLeaseMs, requireWorker: worker === "required" });
    return jsonResponse(
      { status: readiness.ready ? "ready" : "not-ready", ...(readiness.ready ? {} : { failed: readiness.failed }), checks: readiness.checks },
      { status: readiness.ready ? 200 : 503 },
    );
  });
}
