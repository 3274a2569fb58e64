/**
 * The cookies of one crawl (RFC 6265, simplified), as Heritrix and Crawlee keep them: many
 * sites set a session or consent cookie on the first answer and redirect in circles, refuse
 * downloads, or write a new session id into every link for a client that never sends it back.
 *
 * Kept: name, value, Domain (host-only without it), Path (default: the request's directory),
 * Secure (sent over https only). A cookie is deleted by Max-Age ≤ 0 or an Expires in the past;
 * otherwise it lives as long as the crawl (a crawl is one browsing session, checkpoints keep
 * the jar, so a resumed crawl goes on with the same cookies), so that the requests a crawl
 * sends depend only on the answers it got. Not kept: SameSite, HttpOnly
 * (no scripts here), public-suffix checks (a Domain must contain a dot and match the host).
 * Bounded: {@link MAX_COOKIES} cookies, each ≤ {@link MAX_COOKIE_CHARS} characters.
 */
export const MAX_COOKIES = 300;
export const MAX_COOKIE_CHARS = 4096;

/** Plain JSON state of a {@link CookieJar}: its cookies in creation order. */
export type CookieJarState = [name: string, value: string, domain: string, hostOnly: boolean, path: string, secure: boolean][];

interface Cookie {
  readonly name: string;
  readonly value: string;
  /** Lower case, no leading dot. */
  readonly domain: string;
  readonly hostOnly: boolean;
  readonly path: string;
  readonly secure: boolean;
}

export class CookieJar {
  /** Keyed by {@link cookieKey}. */
  private readonly cookies = new Map<string, Cookie>();

  get size(): number {
    return this.cookies.size;
  }

  toState(): CookieJarState {
    return [...this.cookies.values()].map((c) => [c.name, c.value, c.domain, c.hostOnly, c.path, c.secure]);
  }

  static fromState(state: CookieJarState): CookieJar {
    if (!Array.isArray(state)) throw new TypeError("Invalid cookie jar state: not an array");
    const jar = new CookieJar();
    for (const entry of state.slice(0, MAX_COOKIES)) {
      const [name, value, domain, hostOnly, path, secure] = Array.isArray(entry) ? entry : [];
      if (typeof name !== "string" || typeof value !== "string" || typeof domain !== "string" || typeof path !== "string" || typeof hostOnly !== "boolean" || typeof secure !== "boolean") {
        throw new TypeError("Invalid cookie jar state: malformed cookie");
      }
      jar.cookies.set(cookieKey(domain, path, name), { name, value, domain, hostOnly, path, secure });
    }
    return jar;
  }

  /**
   * Stores the cookies of a response to `url`. `setCookie`: the Set-Cookie header lines,
   * separated by "\n" (the fetcher joins repeated Set-Cookie headers so, as commas occur in dates).
   */
  store(url: string, setCookie: string | undefined, now = Date.now()): void {
    if (!setCookie) return;
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return;
    }
    for (const line of setCookie.split("\n")) this.storeOne(target, line, now);
  }

  /** The Cookie header for a request to `url`, or undefined when no cookie applies. */
  header(url: string): string | undefined {
    if (this.cookies.size === 0) return undefined;
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return undefined;
    }
    const host = target.hostname.toLowerCase();
    const matching: Cookie[] = [];
    for (const cookie of this.cookies.values()) {
      if (cookie.secure && target.protocol !== "https:") continue;
      if (cookie.hostOnly ? host !== cookie.domain : !domainMatches(host, cookie.domain)) continue;
      if (!pathMatches(target.pathname, cookie.path)) continue;
      matching.push(cookie);
    }
    if (matching.length === 0) return undefined;
    // Longer paths first (RFC 6265 5.4); among equals, the order of creation (Map order, stable).
    matching.sort((a, b) => b.path.length - a.path.length);
    return matching.map((c) => (c.name === "" ? c.value : `${c.name}=${c.value}`)).join("; ");
  }

  private storeOne(target: URL, line: string, now: number): void {
    // RFC 6265 5.2: a line with a control character (HTAB aside) is ignored whole; kept, a CR
    // or NUL would make the next request's Cookie header invalid (found by the fuzz target).
    if (line.length > MAX_COOKIE_CHARS || CONTROL_CHARACTER.test(line)) return;
    const [pair = "", ...attributes] = line.split(";");
    const eq = pair.indexOf("=");
    if (eq < 0) return; // RFC 6265 5.2: a name-value pair without "=" is ignored
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const host = target.hostname.toLowerCase();
    let domain = host;
    let hostOnly = true;
    let path = defaultPath(target.pathname);
    let secure = false;
    let expired = false;
    let maxAgeSeen = false;
    for (const attribute of attributes) {
      const at = attribute.indexOf("=");
      const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
      const val = at < 0 ? "" : attribute.slice(at + 1).trim();
      if (key === "domain" && val !== "") {
        const d = val.replace(/^\./, "").toLowerCase();
        if (!d.includes(".") || !domainMatches(host, d)) return; // another site's, or a bare TLD: rejected
        domain = d;
        hostOnly = false;
      } else if (key === "path" && val.startsWith("/")) {
        path = val;
      } else if (key === "secure") {
        secure = true;
      } else if (key === "max-age" && /^-?\d+$/.test(val)) {
        maxAgeSeen = true;
        expired = Number(val) <= 0;
      } else if (key === "expires" && !maxAgeSeen) {
        const time = Date.parse(val);
        if (!Number.isNaN(time)) expired = time <= now;
      }
    }
    const key = cookieKey(domain, path, name);
    if (expired) {
      this.cookies.delete(key);
      return;
    }
    if (!this.cookies.has(key) && this.cookies.size >= MAX_COOKIES) return;
    this.cookies.set(key, { name, value, domain, hostOnly, path, secure });
  }
}

const CONTROL_CHARACTER = /[\x00-\x08\x0a-\x1f\x7f]/;

/** A later cookie with the same domain, path and name replaces the earlier (RFC 6265 5.3). */
function cookieKey(domain: string, path: string, name: string): string {
  return `${domain}\u0000${path}\u0000${name}`;
}

function domainMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith("." + domain);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/** RFC 6265 5.1.4: the request path up to, not including, its last "/" ("/" when that is the first). */
function defaultPath(requestPath: string): string {
  const last = requestPath.lastIndexOf("/");
  return last <= 0 ? "/" : requestPath.slice(0, last);
}
