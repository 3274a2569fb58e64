/**
 * Which addresses a crawl may connect to. Public addresses always; private, loopback,
 * link-local, unique-local, carrier-grade NAT… addresses only inside one of the server's
 * CIDRs (FORAGE_PRIVATE_NETWORKS and the admin's list), or all of them for a crawl the local
 * CLI stored with `allowPrivateNetwork`; cloud-metadata addresses never. The decision is
 * made on the address actually connected to (network-safety.ts), not on the URL text.
 */
import ipaddr from "ipaddr.js";
import { addressForms, addressRange, isMetadataAddress, parseAddress, type Address } from "./address-ranges";
import { PrivateNetworkRefusedError } from "./errors";

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

/**
 * Parses a list of CIDRs into their canonical texts, duplicates removed, order kept.
 * @throws CidrError for the first bad one
 */
export function canonicalCidrs(cidrs: readonly string[]): string[] {
  return [...new Set(cidrs.map((cidr) => parseCidr(cidr).text))];
}

/** Splits a comma-separated list (FORAGE_PRIVATE_NETWORKS), blanks dropped. */
export function splitCidrList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

export interface NetworkPolicyOptions {
  /** CIDRs of non-public addresses the crawl may reach (the server's list). @default [] */
  privateNetworks?: readonly string[];
  /** Every non-public address may be reached (a crawl stored by the local CLI). Metadata stays refused. @default false */
  allowAllPrivate?: boolean;
}

/** The network policy of one crawl: immutable, checked on every connection. */
export class NetworkPolicy {
  /** Canonical CIDR texts. */
  readonly privateNetworks: readonly string[];
  readonly allowAllPrivate: boolean;
  private readonly cidrs: readonly Cidr[];

  /** @throws CidrError for a bad CIDR */
  constructor(options: NetworkPolicyOptions = {}) {
    this.cidrs = (options.privateNetworks ?? []).map(parseCidr);
    this.privateNetworks = [...new Set(this.cidrs.map((cidr) => cidr.text))];
    this.allowAllPrivate = options.allowAllPrivate ?? false;
  }

  /** Public addresses only (what an API crawl gets on a server without a policy). */
  static publicOnly(): NetworkPolicy {
    return new NetworkPolicy();
  }

  /**
   * The refusal for connecting to `address` (what `host` resolved to, or the host itself when
   * it is an IP), or null when the connection may go ahead.
   */
  check(host: string, address: string): PrivateNetworkRefusedError | null {
    if (isMetadataAddress(address)) return new PrivateNetworkRefusedError(host, address, "cloudMetadata");
    const range = addressRange(address);
    if (range === "unicast") return null;
    if (range !== "invalid" && (this.allowAllPrivate || this.covers(address))) return null;
    return new PrivateNetworkRefusedError(host, address, range);
  }

  /** Whether one of the policy's CIDRs contains the address (or the IPv4 address it carries). */
  covers(address: string): boolean {
    const ip = parseAddress(address);
    if (!ip) return false;
    return addressForms(ip).some((form) => this.cidrs.some((cidr) => contains(cidr, form)));
  }
}

function contains(cidr: Cidr, ip: Address): boolean {
  if (cidr.network.kind() !== ip.kind()) return false;
  return ip.kind() === "ipv4"
    ? (ip as ipaddr.IPv4).match(cidr.network as ipaddr.IPv4, cidr.prefix)
    : (ip as ipaddr.IPv6).match(cidr.network as ipaddr.IPv6, cidr.prefix);
}
