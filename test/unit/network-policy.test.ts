import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config";
import { canonicalCidrs, CidrError, isMetadataAddress, METADATA_ADDRESSES, NetworkPolicy, parseCidr, splitCidrList } from "../../lib/crawler/fetch";

const refusal = (policy: NetworkPolicy, address: string, host = address) => policy.check(host, address)?.message ?? null;

describe("CIDR parsing", () => {
  it.each([
    ["10.0.0.0/8", "10.0.0.0/8"],
    ["10.1.2.3/8", "10.0.0.0/8"], // host bits cleared
    [" 192.168.1.7 ", "192.168.1.7/32"], // a bare address is one host
    ["fd12:3456:789a::1/48", "fd12:3456:789a::/48"],
    ["FD00::/8", "fd00::/8"],
    ["::1", "::1/128"],
    ["::ffff:10.0.0.0/104", "10.0.0.0/8"], // mapped IPv6 range = the IPv4 range it means
    ["0.0.0.0/0", "0.0.0.0/0"],
  ])("reads %j as %s", (input, canonical) => {
    expect(parseCidr(input).text).toBe(canonical);
  });

  it.each([
    ["10.0.0.0/33", "has an invalid prefix length: expected 0 to 32 after \"/\""],
    ["fd00::/129", "has an invalid prefix length: expected 0 to 128 after \"/\""],
    ["10.0.0.0/", "has an invalid prefix length: expected 0 to 32 after \"/\""],
    ["10.0.0.0/8/8", "has an invalid prefix length: expected 0 to 32 after \"/\""],
    ["010.0.0.0/8", "is not a CIDR"], // ipaddr.js alone would read octal 8.0.0.0/8
    ["10.1/16", "is not a CIDR"],
    ["intranet.local/24", "is not a CIDR"],
    ["fe80::1%eth0/64", "is not a CIDR"],
    ["", "is empty"],
  ])("refuses %j, naming it", (input, reason) => {
    let error: unknown;
    try {
      parseCidr(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CidrError);
    expect((error as CidrError).message).toContain(`${JSON.stringify(input)} ${reason}`);
  });

  it("reads a comma-separated list, blanks and duplicates dropped", () => {
    expect(canonicalCidrs(splitCidrList(" 10.0.0.0/8, ,127.0.0.1,10.9.9.9/8,fd00::/8,"))).toEqual(["10.0.0.0/8", "127.0.0.1/32", "fd00::/8"]);
  });
});

describe("FORAGE_PRIVATE_NETWORKS", () => {
  it("is parsed into canonical CIDRs, empty by default", () => {
    expect(loadConfig({ FORAGE_PRIVATE_NETWORKS: "10.1.0.0/16,192.168.0.1" }).privateNetworks).toEqual(["10.1.0.0/16", "192.168.0.1/32"]);
    expect(loadConfig({ FORAGE_PRIVATE_NETWORKS: "" }).privateNetworks).toEqual([]);
  });

  it("is a ConfigError naming the bad CIDR", () => {
    expect(() => loadConfig({ FORAGE_PRIVATE_NETWORKS: "10.0.0.0/8,172.16.0.0/40" })).toThrow(ConfigError);
    expect(() => loadConfig({ FORAGE_PRIVATE_NETWORKS: "10.0.0.0/8,172.16.0.0/40" })).toThrow(
      'Invalid environment: FORAGE_PRIVATE_NETWORKS: "172.16.0.0/40" has an invalid prefix length',
    );
  });
});

describe("network policy", () => {
  const none = NetworkPolicy.publicOnly();
  const intranet = new NetworkPolicy({ privateNetworks: ["10.20.0.0/16", "fd00:1234::/32", "127.0.0.1"] });

  it("always allows public addresses", () => {
    for (const address of ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34", "64:ff9b::5db8:d822"]) {
      expect(refusal(none, address)).toBeNull();
    }
  });

  it("allows a non-public address only inside one of its CIDRs (IPv4, IPv6, IPv4-mapped)", () => {
    expect(refusal(intranet, "10.20.3.4")).toBeNull();
    expect(refusal(intranet, "::ffff:10.20.3.4")).toBeNull();
    expect(refusal(intranet, "fd00:1234:5::9")).toBeNull();
    expect(refusal(intranet, "127.0.0.1")).toBeNull();
    expect(refusal(intranet, "10.21.0.1")).toBe("refused: 10.21.0.1 is a private address not in the server's network policy");
    expect(refusal(intranet, "::ffff:10.21.0.1")).toBe("refused: ::ffff:10.21.0.1 is a private address not in the server's network policy");
    expect(refusal(intranet, "fd00:1235::1")).toBe("refused: fd00:1235::1 is a unique-local (ULA) address not in the server's network policy");
    expect(refusal(intranet, "127.0.0.2")).toBe("refused: 127.0.0.2 is a loopback address not in the server's network policy");
    expect(refusal(intranet, "::1")).toBe("refused: ::1 is a loopback address not in the server's network policy");
    expect(refusal(none, "100.64.1.1", "cgnat.example")).toBe("refused: 100.64.1.1 (cgnat.example) is a carrier-grade NAT address not in the server's network policy");
  });

  it("an IPv4 CIDR covers the same address in IPv4-mapped, NAT64 and IPv4-compatible IPv6 forms", () => {
    const loopback = new NetworkPolicy({ privateNetworks: ["127.0.0.0/8"] });
    for (const form of ["127.0.0.1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::7f00:1", "::127.0.0.1"]) {
      expect(refusal(loopback, form), form).toBeNull();
      expect(refusal(none, form), form).not.toBeNull();
    }
  });

  it("allowAllPrivate (a crawl the local CLI stored) reaches every private range", () => {
    const all = new NetworkPolicy({ allowAllPrivate: true });
    for (const address of ["10.0.0.1", "192.168.1.1", "127.0.0.1", "::1", "fe80::1", "fd00::1", "169.254.1.1", "100.64.0.1"]) {
      expect(refusal(all, address), address).toBeNull();
    }
  });

  it("refuses what is not an address at all", () => {
    expect(refusal(new NetworkPolicy({ allowAllPrivate: true, privateNetworks: ["0.0.0.0/0"] }), "not-an-ip")).toBe(
      "refused: not-an-ip is an invalid address not in the server's network policy",
    );
  });
});

describe("cloud-metadata addresses", () => {
  const spellings = [
    "169.254.169.254",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::ffff:0:a9fe:a9fe", // IPv4-translated (RFC 6145)
    "64:ff9b::a9fe:a9fe", // NAT64
    "64:ff9b:1::a9fe:a9fe", // local-use NAT64
    "::169.254.169.254", // IPv4-compatible (deprecated)
    "fd00:ec2::254",
    "fd00:0ec2:0000:0000:0000:0000:0000:0254",
    "168.63.129.16",
    "::ffff:168.63.129.16",
    "100.100.100.200",
    "::ffff:100.100.100.200",
  ];
  const everything = new NetworkPolicy({
    allowAllPrivate: true,
    privateNetworks: ["0.0.0.0/0", "::/0", "169.254.0.0/16", "169.254.169.254/32", "fd00::/8", "168.63.129.16", "100.64.0.0/10"],
  });

  it.each(spellings)("%s is a metadata address", (address) => {
    expect(isMetadataAddress(address)).toBe(true);
  });

  it.each(spellings)("%s is refused whatever the policy covers", (address) => {
    expect(refusal(everything, address)).toBe(`refused: ${address} is a cloud-metadata address`);
    expect(refusal(NetworkPolicy.publicOnly(), address, "metadata.example")).toBe(`refused: ${address} (metadata.example) is a cloud-metadata address`);
  });

  it("lists exactly the four endpoints of the issue", () => {
    expect([...METADATA_ADDRESSES]).toEqual(["169.254.169.254", "fd00:ec2::254", "168.63.129.16", "100.100.100.200"]);
  });

  it.each(["169.254.169.253", "169.254.170.2", "fd00:ec2::253", "168.63.129.17", "100.100.100.201", "::ffff:169.254.169.253"])(
    "%s next to one is not, and follows the policy",
    (address) => {
      expect(isMetadataAddress(address)).toBe(false);
      expect(refusal(everything, address)).toBeNull();
    },
  );
});
