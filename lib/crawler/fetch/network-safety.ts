/**
 * Keeps the crawler off private networks and cloud-metadata endpoints (SSRF protection). A
 * crawl may be pointed at any URL by any user, and a page may link to (or redirect to)
 * `http://169.254.169.254/` or to a name that resolves to 10.0.0.1, so checking the URL text
 * is not enough: the address is checked on the connection itself, inside undici's connector,
 * with a `lookup` that filters what DNS returns. The address checked is the address connected
 * to, so DNS rebinding (public at check time, private at connect time) cannot slip through.
 * Redirects are followed by the engine, one request each, so every hop to a new host opens a
 * new connection and goes through the same checks. What is allowed is the crawl's
 * NetworkPolicy (network-policy.ts).
 */
import dns from "node:dns";
import net from "node:net";
import { Agent, buildConnector } from "undici";
import { z } from "zod";
import { addressRange, isPublicAddress } from "./address-ranges";
import { InvalidUrlError, PrivateNetworkRefusedError, UnsupportedSchemeError } from "./errors";
import { CidrError, NetworkPolicy, parseNetworkEntry } from "./network-policy";

export { addressRange, isPublicAddress };

/** Returns the refusal for `address` (on `port`) under `policy` (@default public addresses only), or null when it may be connected to. */
export function checkAddress(host: string, address: string, policy: NetworkPolicy = NetworkPolicy.publicOnly(), port?: number): PrivateNetworkRefusedError | null {
  return policy.check(host, address, port);
}

/** The port a URL connects to: its own, else the scheme's. */
export function urlPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** `true` (the local CLI's `allowPrivateNetwork`) → every private range; `false` → public only. */
function toPolicy(policy: NetworkPolicy | boolean): NetworkPolicy {
  return typeof policy === "boolean" ? new NetworkPolicy({ allowAllPrivate: policy }) : policy;
}

/**
 * Parses and checks a URL before any connection: http(s) only, and a literal IP host must be
 * allowed by the policy (literal IPs never reach `lookup`).
 * @throws InvalidUrlError | UnsupportedSchemeError | PrivateNetworkRefusedError
 */
export function assertFetchableUrl(url: string | URL, policy: NetworkPolicy | boolean): URL {
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
  if (net.isIP(host)) {
    const refusal = toPolicy(policy).check(host, host, urlPort(parsed));
    if (refusal) throw refusal;
  }
  return parsed;
}

function unbracket(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that drops the addresses `policy` refuses on `port` (a lookup is not
 * told the port, so each port gets its own lookup: see createAgent). When some addresses are
 * allowed the connection uses those (a dual-stack name with a stray private record still
 * works); when none is, the lookup fails with the PrivateNetworkRefusedError of the first
 * address (a metadata one first, the more telling reason), before any connection is tried.
 */
export function createSafeLookup(policy: NetworkPolicy = NetworkPolicy.publicOnly(), baseLookup: typeof dns.lookup = dns.lookup, port?: number) {
  return function safeLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
    baseLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const list = addresses as dns.LookupAddress[];
      const refusals = list.map((a) => policy.check(hostname, a.address, port));
      const allowed = list.filter((_, i) => refusals[i] === null);
      if (allowed.length === 0) {
        const refusal =
          refusals.find((r) => r?.range === "cloudMetadata") ?? refusals[0] ?? new PrivateNetworkRefusedError(hostname, "none", "invalid");
        return callback(refusal as NodeJS.ErrnoException, "");
      }
      if (options.all) return callback(null, allowed);
      const one = allowed[0]!;
      callback(null, one.address, one.family);
    });
  };
}

const cidrSchema = z.string().superRefine((value, ctx) => {
  try {
    parseNetworkEntry(value);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: error instanceof CidrError ? error.reason : String(error) });
  }
});

export const agentOptionsSchema = z.strictObject({
  /**
   * Allow every loopback / private / link-local / … address: only for crawls the local CLI
   * stores (`forage crawl --allow-private-network`, its user is the admin). @default false
   */
  allowPrivateNetwork: z.boolean().default(false),
  /** Entries (CIDRs, optionally with ports) of non-public addresses allowed (the server's network policy). @default [] */
  privateNetworks: z.array(cidrSchema).default([]),
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

/** The policy that agent options describe. */
export function networkPolicyOf(options: AgentOptions): NetworkPolicy {
  return new NetworkPolicy({ privateNetworks: options.privateNetworks ?? [], allowAllPrivate: options.allowPrivateNetwork ?? false });
}

/** Connectors kept per port (each keeps its TLS sessions); past this many the oldest is dropped. */
const MAX_PORT_CONNECTORS = 64;

/**
 * The undici Agent every crawler request goes through. Its connector checks a literal IP
 * host and port against the policy, resolves names through `createSafeLookup` for the port,
 * and re-checks the socket's remote address and port as a last guard. There is no unchecked
 * path: even a crawl allowed every private range goes through it, for the metadata addresses.
 */
export function createAgent(options: AgentOptions = {}, onConnected?: (hostPort: string, address: string) => void): Agent {
  const o = agentOptionsSchema.parse(options);
  const policy = networkPolicyOf(o);
  // A lookup is not told the port, and the policy depends on it: one connector (and lookup) per port.
  const connectors = new Map<number, buildConnector.connector>();
  const connectorFor = (port: number) => {
    let connector = connectors.get(port);
    if (!connector) {
      if (connectors.size >= MAX_PORT_CONNECTORS) connectors.delete(connectors.keys().next().value!);
      connector = buildConnector({ timeout: o.connectTimeoutMs, lookup: createSafeLookup(policy, dns.lookup, port) });
      connectors.set(port, connector);
    }
    return connector;
  };
  const connect: buildConnector.connector = (opts, callback) => {
    const host = unbracket(opts.hostname);
    const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
    const literal = net.isIP(host) ? policy.check(host, host, port) : null;
    if (literal) return callback(literal, null);
    connectorFor(port)(opts, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error("connect failed"), null);
      const remote = socket.remoteAddress;
      const late = remote ? policy.check(host, remote, socket.remotePort ?? port) : null;
      if (late) {
        socket.destroy();
        return callback(late, null);
      }
      if (remote) onConnected?.(`${host}:${port}`, remote);
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
