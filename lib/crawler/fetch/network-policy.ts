/**
 * Which addresses and ports a crawl may connect to. Public addresses always, on any port;
 * private, loopback, link-local, unique-local, carrier-grade NAT… addresses only inside one of
 * the server's entries (FORAGE_PRIVATE_NETWORKS and the admin's list), each a CIDR on any port
 * (`10.0.0.0/8`) or on listed ports only (`192.168.1.10/32:8080,8443`, `[fd00::/8]:443`), or
 * all of them for a crawl the local CLI stored with `allowPrivateNetwork`; cloud-metadata
 * addresses never. The decision is made on the address and port actually connected to
 * (network-safety.ts), not on the URL text, and before the connection is attempted.
 */
import ipaddr from "ipaddr.js";
import { addressForms, addressRange, isMetadataAddress, parseAddress, type Address } from "./address-ranges";
import { PrivateNetworkRefusedError } from "./errors";
import { splitNetworkList } from "./network-list";
import { formatPortList, parsePortList, portAllowed, PortListError, type PortRange } from "./network-ports";

/** A CIDR that does not parse; the message names it and says why. */
export class CidrError extends Error {
  override name = "CidrError";
  constructor(
    readonly cidr: string,
    readonly reason: string,
  ) {
    super(`${JSON.stringify(cidr)} ${reason}`);
  }
}

export interface Cidr {
  /** Canonical text: the network address (host bits cleared) and the prefix, e.g. "10.0.0.0/8". */
  readonly text: string;
  readonly network: Address;
  readonly prefix: number;
}

/**
 * Parses `10.0.0.0/8`, `fd12:3456::/48`, or a bare address (one host: /32 or /128). IPv4 must
 * be four decimal parts (ipaddr.js would read `010.0.0.0` as octal 8.0.0.0); an IPv4-mapped
 * IPv6 range (`::ffff:10.0.0.0/104`) becomes the IPv4 range it means.
 * @throws CidrError
 */
export function parseCidr(input: string): Cidr {
  const text = input.trim();
  if (text === "") throw new CidrError(input, "is empty");
  const slash = text.indexOf("/");
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const prefixText = slash < 0 ? null : text.slice(slash + 1);
  const address = parseAddress(addressText);
  if (!address) throw new CidrError(input, "is not a CIDR: expected an IPv4 or IPv6 address, e.g. 10.0.0.0/8 or fd00::/8");
  const maxPrefix = address.kind() === "ipv4" ? 32 : 128;
  let prefix = maxPrefix;
  if (prefixText !== null) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > maxPrefix) {
      throw new CidrError(input, `has an invalid prefix length: expected 0 to ${maxPrefix} after "/"`);
    }
    prefix = Number(prefixText);
  }
  let network: Address = address;
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    network = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const cleared = network.kind() === "ipv4"
    ? ipaddr.IPv4.networkAddressFromCIDR(`${network.toString()}/${prefix}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${network.toString()}/${prefix}`);
  return { text: `${cleared.toString()}/${prefix}`, network: cleared, prefix };
}

/** One entry of a network policy: a CIDR, on any port (`ports` null) or on the listed ones. */
export interface NetworkEntry {
  /** Canonical text: `10.0.0.0/8`, `192.168.1.10/32:8080,8443`, `[fd00::/8]:443`. */
  readonly text: string;
  readonly cidr: Cidr;
  readonly ports: readonly PortRange[] | null;
}

/**
 * Parses a policy entry: a CIDR or address (see {@link parseCidr}), optionally followed by
 * `:` and ports (`8080,8443`, ranges `8000-8099`). An IPv6 entry with ports is bracketed, as in
 * a URL (`[fd00::/8]:443`), since its colons would be ambiguous; an IPv4 one is not. An entry
 * written before ports existed (`10.0.0.0/8`) reads as before: any port.
 * @throws CidrError naming the entry
 */
export function parseNetworkEntry(input: string): NetworkEntry {
  const text = input.trim();
  let cidrText = text;
  let portText: string | null = null;
  if (text.startsWith("[")) {
    const close = text.indexOf("]");
    const rest = close < 0 ? "" : text.slice(close + 1);
    if (close < 0 || (rest !== "" && !rest.startsWith(":"))) {
      throw new CidrError(input, 'is not a network: expected [IPv6 CIDR]:ports, e.g. [fd00::/8]:443');
    }
    cidrText = text.slice(1, close);
    portText = rest === "" ? null : rest.slice(1);
  } else if (text.split(":").length === 2) {
    // One colon: IPv4 with ports (an IPv6 address has at least two colons).
    [cidrText, portText] = text.split(":") as [string, string];
  }
  let cidr: Cidr;
  try {
    cidr = parseCidr(cidrText);
  } catch (error) {
    if (error instanceof CidrError) throw new CidrError(input, error.reason);
    throw error;
  }
  if (portText === null) return { text: cidr.text, cidr, ports: null };
  let ports: PortRange[];
  try {
    ports = parsePortList(portText);
  } catch (error) {
    if (error instanceof PortListError) throw new CidrError(input, error.message);
    throw error;
  }
  const network = cidr.network.kind() === "ipv6" ? `[${cidr.text}]` : cidr.text;
  return { text: `${network}:${formatPortList(ports)}`, cidr, ports };
}

/**
 * Parses a list of entries into their canonical texts, duplicates removed, order kept.
 * @throws CidrError for the first bad one
 */
export function canonicalCidrs(entries: readonly string[]): string[] {
  return [...new Set(entries.map((entry) => parseNetworkEntry(entry).text))];
}

/** Splits a typed list (FORAGE_PRIVATE_NETWORKS) into entries, blanks dropped (network-list.ts). */
export const splitCidrList = splitNetworkList;

export interface NetworkPolicyOptions {
  /** Entries (CIDRs, optionally with ports) of non-public addresses the crawl may reach (the server's list). @default [] */
  privateNetworks?: readonly string[];
  /** Every non-public address may be reached (a crawl stored by the local CLI). Metadata stays refused. @default false */
  allowAllPrivate?: boolean;
}

/** Allowed address texts remembered by one policy, at most (then forgotten all at once). */
const MAX_REMEMBERED_ALLOWED = 4096;

/** The network policy of one crawl: immutable, checked on every connection. */
export class NetworkPolicy {
  /** Canonical entry texts. */
  readonly privateNetworks: readonly string[];
  readonly allowAllPrivate: boolean;
  private readonly entries: readonly NetworkEntry[];
  /**
   * Address (and port) texts already allowed: a crawl of a site named by its IP address checks it
   * on every request, and parsing the address against the range tables each time cost more than
   * the rest of the request's own checks.
   */
  private readonly allowed = new Set<string>();

  /** @throws CidrError for a bad entry */
  constructor(options: NetworkPolicyOptions = {}) {
    this.entries = (options.privateNetworks ?? []).map(parseNetworkEntry);
    this.privateNetworks = [...new Set(this.entries.map((entry) => entry.text))];
    this.allowAllPrivate = options.allowAllPrivate ?? false;
  }

  /** Public addresses only (what an API crawl gets on a server without a policy). */
  static publicOnly(): NetworkPolicy {
    return new NetworkPolicy();
  }

  /**
   * The refusal for connecting to `address` on `port` (`address` is what `host` resolved to,
   * or the host itself when it is an IP), or null when the connection may go ahead. Without a
   * port, only entries open on every port count.
   *
   * The refusal is the same whether the address is outside every entry or only the port is:
   * its text never says which, so probing ports of a host a member may reach on one port only
   * tells them nothing (and it is decided before any connection, so no timing either).
   */
  check(host: string, address: string, port?: number): PrivateNetworkRefusedError | null {
    // The verdict depends on the address text and the port only: an allowed pair is not parsed again.
    const key = port === undefined ? address : `${address} ${port}`;
    if (this.allowed.has(key)) return null;
    if (isMetadataAddress(address)) return new PrivateNetworkRefusedError(host, address, "cloudMetadata");
    const range = addressRange(address);
    if (range === "invalid" || (range !== "unicast" && !this.allowAllPrivate && !this.covers(address, port))) {
      return new PrivateNetworkRefusedError(host, address, range);
    }
    if (this.allowed.size >= MAX_REMEMBERED_ALLOWED) this.allowed.clear();
    this.allowed.add(key);
    return null;
  }

  /**
   * Whether one of the policy's entries contains the address (or the IPv4 address it carries)
   * on `port` (without a port: an entry open on every port).
   */
  covers(address: string, port?: number): boolean {
    const ip = parseAddress(address);
    if (!ip) return false;
    const open = (entry: NetworkEntry) => entry.ports === null || (port !== undefined && portAllowed(entry.ports, port));
    return addressForms(ip).some((form) => this.entries.some((entry) => open(entry) && contains(entry.cidr, form)));
  }
}

function contains(cidr: Cidr, ip: Address): boolean {
  if (cidr.network.kind() !== ip.kind()) return false;
  return ip.kind() === "ipv4"
    ? (ip as ipaddr.IPv4).match(cidr.network as ipaddr.IPv4, cidr.prefix)
    : (ip as ipaddr.IPv6).match(cidr.network as ipaddr.IPv6, cidr.prefix);
}
