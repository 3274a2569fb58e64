/**
 * What kind of address an IP is, for the network policy (network-policy.ts): public, one of
 * the private/special ranges, or a cloud-metadata endpoint. An IPv6 address that carries an
 * IPv4 one (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, the deprecated
 * `::a.b.c.d`) is judged by its IPv4 part: `::ffff:169.254.169.254` is the metadata address
 * spelled differently, and a DNS64 network must still reach public IPv4 sites.
 */
import ipaddr from "ipaddr.js";

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Cloud instance-metadata endpoints (AWS/GCP/Azure/Oracle/OpenStack 169.254.169.254, AWS over
 * IPv6 fd00:ec2::254, Azure's wire server 168.63.129.16, Alibaba 100.100.100.200). They hand
 * out the host's credentials to whoever asks, so no policy may open them: 168.63.129.16 is
 * even a public address.
 */
export const METADATA_ADDRESSES = ["169.254.169.254", "fd00:ec2::254", "168.63.129.16", "100.100.100.200"] as const;

const METADATA = METADATA_ADDRESSES.map((text) => ipaddr.parse(text).toNormalizedString());

/** Prefixes whose last 32 bits are an IPv4 address (RFC 4291, 6145, 6052, 8215). */
const IPV4_CARRIERS = (["::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "::/96"] as const).map(
  (cidr) => ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number],
);

/** Parses an address (no zone id); null when it is not one. */
export function parseAddress(text: string): Address | null {
  if (text.includes("%") || !ipaddr.isValid(text)) return null;
  try {
    const ip = ipaddr.parse(text);
    // ipaddr.js accepts "010.0.0.1" (octal) and "10.1" as IPv4; the socket never reports those.
    if (ip.kind() === "ipv4" && !ipaddr.IPv4.isValidFourPartDecimal(text)) return null;
    return ip;
  } catch {
    return null;
  }
}

/** The IPv4 address an IPv6 address carries (see the module comment), or null. `::` and `::1` carry none. */
export function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = ip.range();
  if (range === "unspecified" || range === "loopback") return null;
  if (!IPV4_CARRIERS.some((carrier) => ip.match(carrier))) return null;
  return ipaddr.fromByteArray(ip.toByteArray().slice(12)) as ipaddr.IPv4;
}

/** The address itself, and the IPv4 address it carries when it is an IPv6 one carrying one. */
export function addressForms(ip: Address): Address[] {
  if (ip.kind() === "ipv4") return [ip];
  const v4 = embeddedIpv4(ip as ipaddr.IPv6);
  return v4 ? [v4, ip] : [ip];
}

/**
 * ipaddr.js range name of an address; `"unicast"` is the only public one, `"invalid"` when
 * it is not an address. An IPv6 address carrying an IPv4 one gets the IPv4 one's range.
 */
export function addressRange(address: string): string {
  const ip = parseAddress(address);
  if (!ip) return "invalid";
  return addressForms(ip)[0]!.range();
}

/** True for public unicast addresses only (metadata addresses aside: see {@link isMetadataAddress}). */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === "unicast";
}

/** True for a cloud-metadata address in any spelling (`::ffff:169.254.169.254`, `fd00:0ec2::0254`…). */
export function isMetadataAddress(address: string): boolean {
  const ip = parseAddress(address);
  return ip !== null && addressForms(ip).some((form) => METADATA.includes(form.toNormalizedString()));
}

/** Words for the request log, with their article: "is a link-local address". */
const RANGE_WORDS: Record<string, string> = {
  private: "a private",
  loopback: "a loopback",
  linkLocal: "a link-local",
  uniqueLocal: "a unique-local (ULA)",
  carrierGradeNat: "a carrier-grade NAT",
  unspecified: "an unspecified",
  broadcast: "a broadcast",
  multicast: "a multicast",
  reserved: "a reserved",
  benchmarking: "a benchmarking",
  amt: "an AMT",
  as112: "an AS112",
  as112v6: "an AS112",
  deprecated: "a deprecated",
  orchid2: "an ORCHIDv2",
  discard: "a discard-only",
  rfc6145: "an IPv4-translated",
  rfc6052: "a NAT64",
  "6to4": "a 6to4",
  teredo: "a Teredo",
  invalid: "an invalid",
};

/** "a private address", "an AMT address": the range name in words with its article. */
export function describeRange(range: string): string {
  return `${RANGE_WORDS[range] ?? `a ${range}`} address`;
}
