import { handle } from "@/lib/api/handle";
import { jsonResponse } from "@/lib/api/responses";
import { SameOrigin } from "@/lib/api/same-origin";
import { loadConfig } from "@/lib/config";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

let sameOrigin: SameOrigin | undefined;

/**
 * Liveness: the process answers HTTP. No credentials and no database (a slow database must not
 * get a live process restarted); the Host is still checked, like every route's.
 */
export async function GET(request: Request): Promise<Response> {
  return handle(async () => {
    sameOrigin ??= new SameOrigin(loadConfig().publicOrigin);
    sameOrigin.checkHost(request);
    return jsonResponse({ status: "ok", uptimeSeconds: Math.round(process.uptime()) });
  });
}
