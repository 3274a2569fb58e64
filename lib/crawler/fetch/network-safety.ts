/**
 * Keeps the crawler off private networks (SSRF protection). A crawl may be pointed at any
 * URL by any user, and a page may link to `http://169.254.169.254/` or to a name that
 * resolves to 10.0.0.1, so checking the URL text is not enough: the address is checked on
 * the connection itself, inside undici's connector, with a `lookup` that filters what DNS
 * returns. The address checked is the address connected to, so DNS rebinding (public at
 * check time, private at connect time) cannot slip through.
 */
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector } from "undici";
import { z } from "zod";
import { InvalidUrlError, PrivateNetworkRefusedError, UnsupportedSchemeError } from "./errors";

/**
 * ipaddr.js range name of an address; `"unicast"` is the only public one. IPv4 embedded
 * in IPv6 (`::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) is judged by its IPv4 part, so
 * `::ffff:127.0.0.1` is loopback while a DNS64 network can still reach public IPv4 sites.
 */
export function addressRange(address: string): string {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address); // turns ::ffff:a.b.c.d into IPv4
  } catch {
    return "invalid";
  }
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    const range = v6.range();
    if (range === "rfc6052" && v6.match(NAT64_PREFIX)) {
      return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range();
    }
    return range;
  }
  return ip.range();
}

const NAT64_PREFIX = ipaddr.parseCIDR("64:ff9b::/96") as [ipaddr.IPv6, number];

/** True for public unicast addresses only. */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === "unicast";
}

/** Returns the refusal for `address`, or null when it may be connected to. */
export function checkAddress(host: string, address: string): PrivateNetworkRefusedError | null {
  const range = addressRange(address);
  return range === "unicast" ? null : new PrivateNetworkRefusedError(host, address, range);
}

/**
 * Parses and checks a URL before any connection: http(s) only, and literal IP hosts must
 * be public unless private networks are allowed (literal IPs never reach `lookup`).
 * @throws InvalidUrlError | UnsupportedSchemeError | PrivateNetworkRefusedError
 */
export function assertFetchableUrl(url: string | URL, allowPrivateNetwork: boolean): URL {
  let parsed: URL;
  try {
    parsed = typeof url === "string" ? new URL(url) : url;
  } catch {
    throw new InvalidUrlError(`Not a valid URL: ${String(url).slice(0, 200)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UnsupportedSchemeError(`Only http and https are fetched, not ${parsed.protocol}`);
  }
  const host = unbracket(parsed.hostname);
  if (!allowPrivateNetwork && net.isIP(host)) {
    const refusal = checkAddress(host, host);
    if (refusal) throw refusal;
  }
  return parsed;
}

function unbracket(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that drops non-public addresses. When some addresses are public
 * the connection uses those (a dual-stack name with a stray private record still works);
 * when none is, the lookup fails with PrivateNetworkRefusedError.
 */
export function createSafeLookup(baseLookup: typeof dns.lookup = dns.lookup) {
  return function safeLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
    baseLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const list = addresses as dns.LookupAddress[];
      const allowed = list.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) {
        const first = list[0];
        const refusal = new PrivateNetworkRefusedError(hostname, first?.address ?? "none", first ? addressRange(first.address) : "none");
        return callback(refusal as NodeJS.ErrnoException, "");
      }
      if (options.all) return callback(null, allowed);
      const one = allowed[0]!;
      callback(null, one.address, one.family);
    });
  };
}

export const agentOptionsSchema = z.strictObject({
  /** Allow loopback / private / link-local / … addresses (local test sites, intranets). @default false */
  allowPrivateNetwork: z.boolean().default(false),
  /** TCP (+TLS) connect timeout. @default 10000 */
  connectTimeoutMs: z.number().int().positive().default(10_000),
  /** Time to wait for response headers. @default 30000 */
  headersTimeoutMs: z.number().int().positive().default(30_000),
  /** Maximum idle time between two body chunks. @default 30000 */
  bodyTimeoutMs: z.number().int().positive().default(30_000),
  /** How long an idle keep-alive connection is kept. @default 4000 */
  keepAliveTimeoutMs: z.number().int().positive().default(4_000),
});
export type AgentOptions = z.input<typeof agentOptionsSchema>;

/**
 * The undici Agent every crawler request goes through. Without `allowPrivateNetwork` the
 * connector refuses literal private IPs, resolves names through `createSafeLookup`, and
 * re-checks the socket's remote address as a last guard.
 */
export function createAgent(options: AgentOptions = {}): Agent {
  const o = agentOptionsSchema.parse(options);
  const base = buildConnector({
    timeout: o.connectTimeoutMs,
    ...(o.allowPrivateNetwork ? {} : { lookup: createSafeLookup() }),
  });
  const connect: buildConnector.connector = o.allowPrivateNetwork
    ? base
    : (opts, callback) => {
        const host = unbracket(opts.hostname);
        const literal = net.isIP(host) ? checkAddress(host, host) : null;
        if (literal) return callback(literal, null);
        base(opts, (err, socket) => {
          if (err || !socket) return callback(err ?? new Error("connect failed"), null);
          const remote = socket.remoteAddress;
          const late = remote ? checkAddress(host, remote) : null;
          if (late) {
            socket.destroy();
            return callback(late, null);
          }
          callback(null, socket);
        });
      };
  return new Agent({
    connect,
    headersTimeout: o.headersTimeoutMs,
    bodyTimeout: o.bodyTimeoutMs,
    keepAliveTimeout: o.keepAliveTimeoutMs,
  });
}
