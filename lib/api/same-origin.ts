import { ForbiddenError, UnknownHostError } from "./errors";

/**
 * Which Host and Origin headers are this server's own. The public origin (FORAGE_PUBLIC_URL)
 * names it; when that is a loopback address, the other loopback names of the same port are its
 * own too (a user types localhost:3000 as often as 127.0.0.1:3000). A rebinding page's Host is its
 * own domain name, never one of these.
 */
export class SameOrigin {
  readonly hosts: ReadonlySet<string>;
  readonly origins: ReadonlySet<string>;
  readonly secure: boolean;

  constructor(readonly publicOrigin: string) {
    const url = new URL(publicOrigin);
    this.secure = url.protocol === "https:";
    const port = url.port ? `:${url.port}` : "";
    const names = LOOPBACK_NAMES.has(url.hostname) ? [...LOOPBACK_NAMES] : [url.hostname];
    this.hosts = new Set(names.map((name) => `${name}${port}`));
    this.origins = new Set([...this.hosts].map((host) => `${url.protocol}//${host}`));
  }

  /** Refuses a request whose Host is not this server's (before any work: DNS rebinding reads nothing). */
  checkHost(request: Request): void {
    const host = (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
    if (!this.hosts.has(host)) throw new UnknownHostError(host, new URL(this.publicOrigin).host);
  }

  /**
   * Refuses a state-changing request sent by another site. `Origin` decides when present (every
   * current browser sends it on POST, PUT, PATCH and DELETE); else `Sec-Fetch-Site`. A request with
   * neither comes from a script (curl), which is no cross-site forgery, unless it carries the
   * browser's session cookie: then it is refused too.
   */
  checkWriteOrigin(request: Request, { cookieAuthenticated }: { cookieAuthenticated: boolean }): void {
    const origin = request.headers.get("origin");
    if (origin !== null) {
      if (!this.origins.has(origin.toLowerCase())) throw crossOrigin(`Origin ${origin.slice(0, 100)}`);
      return;
    }
    const site = request.headers.get("sec-fetch-site");
    if (site !== null) {
      if (site !== "same-origin" && site !== "none") throw crossOrigin(`Sec-Fetch-Site: ${site.slice(0, 40)}`);
      return;
    }
    if (cookieAuthenticated) throw crossOrigin("a request with the session cookie but no Origin header");
  }
}

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

function crossOrigin(what: string): ForbiddenError {
  return new ForbiddenError(`Refused: ${what} may not change anything on this server (only its own pages may)`, "cross_origin");
}
