import { NextResponse, type NextRequest } from "next/server";
import { SameOrigin } from "@/lib/api/same-origin";
import { loadConfig } from "@/lib/config";

/**
 * The network boundary: a request whose Host is not this server's public origin is refused
 * before any page, asset or API route runs, so a DNS-rebinding page reads nothing. The API
 * routes check it again (lib/api/guard.ts) with credentials and Origin; pages check the session.
 */
const sameOrigin = new SameOrigin(loadConfig().publicOrigin);

export function proxy(request: NextRequest): NextResponse {
  try {
    sameOrigin.checkHost(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return NextResponse.json({ error: { code: "unknown_host", message, status: 421 } }, { status: 421, headers: { "cache-control": "no-store" } });
  }
  return NextResponse.next();
}
