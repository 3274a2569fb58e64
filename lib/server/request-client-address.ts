import ipaddr from "ipaddr.js";
import { parseAddress } from "../crawler/fetch/address-ranges";
import { NetworkPolicy } from "../crawler/fetch/network-policy";

/**
 * Who sent a request, decided by the dashboard server from what it can trust: the socket's
 * peer address, or, when that peer is one of FORAGE_TRUSTED_PROXIES, the right-most
 * `X-Forwarded-For` entry that is not itself a trusted proxy (each proxy appends the address it
 * saw, so everything left of the last trusted hop was written by the client and is ignored).
 * The result is what lib/api/client-address.ts reads; sign-in limits key on it.
 */
export class ClientAddressResolver {
  private readonly proxies: NetworkPolicy;

  /** @throws CidrError for a bad CIDR (lib/config.ts has already checked the setting's). */
  constructor(trustedProxies: readonly string[]) {
    this.proxies = new NetworkPolicy({ privateNetworks: trustedProxies });
  }

  /**
   * @param socketAddress `req.socket.remoteAddress` (undefined once the socket is gone)
   * @param forwardedFor the `X-Forwarded-For` header(s) as Node gives them
   */
  resolve(socketAddress: string | undefined, forwardedFor: string | string[] | undefined): string {
    const peer = canonicalAddress(socketAddress);
    if (peer === null) return "unknown";
    if (!this.proxies.covers(peer)) return peer;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "")).split(",").map((hop) => hop.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = canonicalAddress(stripPort(hops[i]!));
      // A hop that is not an address was written by someone we cannot trust: stop at the proxy.
      if (hop === null) return peer;
      if (!this.proxies.covers(hop)) return hop;
    }
    return peer; // every hop is a proxy of ours: the request started inside
  }
}

/** The address in one canonical text (IPv4-mapped IPv6 as IPv4, IPv6 compressed), or null. */
export function canonicalAddress(text: string | undefined): string | null {
  if (!text) return null;
  const ip = parseAddress(text);
  if (!ip) return null;
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) return (ip as ipaddr.IPv6).toIPv4Address().toString();
  return ip.toString();
}

/** "1.2.3.4:5678" and "[2001:db8::1]:443" as some proxies write them; a bare IPv6 address is left alone. */
function stripPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(hop);
  return v4WithPort ? v4WithPort[1]! : hop;
}
