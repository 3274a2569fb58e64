import { NextResponse, type NextRequest } from "next/server";
import { API_CONTENT_SECURITY_POLICY, createNonce, pageContentSecurityPolicy } from "@/lib/api/content-security-policy";
import { SameOrigin } from "@/lib/api/same-origin";
import { loadConfig } from "@/lib/config";

/**
 * The network boundary: a request whose Host is not this server's public origin is refused
 * before any page, asset or API route runs, so a DNS-rebinding page reads nothing. The API
 * routes check it again (lib/api/guard.ts) with credentials and Origin; pages check the session.
 *
 * Then the Content-Security-Policy (lib/api/content-security-policy.ts), set here and nowhere
 * else: API answers (downloads included) get the sandbox policy; everything else gets the page
 * policy with a fresh nonce, also put on the request so Next.js renders it onto its scripts
 * (pages are dynamic: a static page would carry a build-time nonce, i.e. none).
 */
const sameOrigin = new SameOrigin(loadConfig().publicOrigin);
// NODE_ENV is fixed when Next.js builds this file, like next.config.ts's.
const development = process.env.NODE_ENV === "development";

export function proxy(request: NextRequest): NextResponse {
  try {
    sameOrigin.checkHost(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return NextResponse.json({ error: { code: "unknown_host", message, status: 421 } }, { status: 421, headers: { "cache-control": "no-store" } });
  }
  const path = request.nextUrl.pathname;
  if (path === "/api" || path.startsWith("/api/")) {
    const response = NextResponse.next();
    response.headers.set("content-security-policy", API_CONTENT_SECURITY_POLICY);
    return response;
  }
  const policy = pageContentSecurityPolicy(createNonce(), { development });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  return response;
}
