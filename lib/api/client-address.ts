/**
 * The address of the client that sent a request, as the dashboard's own HTTP server saw it.
 * Next.js fills `X-Forwarded-For` only when the client did not send one, so that header is the
 * client's word, not a fact. The dashboard server (lib/server) therefore removes any incoming
 * `x-forage-client-address` header and sets it from the socket (or, behind a proxy listed in
 * FORAGE_TRUSTED_PROXIES, from that proxy's `X-Forwarded-For`) before Next.js sees the request.
 */
export const CLIENT_ADDRESS_HEADER = "x-forage-client-address";

/** The client's address, or "unknown" when the request did not come through the dashboard server (tests calling a handler directly). */
export function clientAddress(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown";
}
