import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config";
import { canonicalCidrs, CidrError, NetworkPolicy, parseNetworkEntry, splitNetworkList } from "../../lib/crawler/fetch";

// Network-policy entries limited to ports: `192.168.1.10/32:8080,8443`, `[fd00::/8]:443`.

describe("entries with ports", () => {
  it.each([
    ["10.0.0.0/8", "10.0.0.0/8"], // no ports: any port, as before
    ["192.168.1.10/32:8080,8443", "192.168.1.10/32:8080,8443"],
    ["192.168.1.10:8443,8080,8080", "192.168.1.10/32:8080,8443"], // sorted, duplicates merged
    ["10.1.2.3/8: 8000-8099, 8100", "10.0.0.0/8:8000-8100"], // adjacent ranges joined
    ["[fd00::/8]:443", "[fd00::/8]:443"],
    ["[FD00::1]:443", "[fd00::1/128]:443"],
    ["[fd00::/8]", "fd00::/8"],
    ["[::ffff:10.0.0.0/104]:80", "10.0.0.0/8:80"], // a mapped range is the IPv4 range it means
  ])("reads %j as %s", (input, canonical) => {
    expect(parseNetworkEntry(input).text).toBe(canonical);
  });

  it.each([
    ["10.0.0.0/8:", 'has an empty port: expected ports after ":"'],
    ["10.0.0.0/8:0", 'has an invalid port "0": expected 1 to 65535'],
    ["10.0.0.0/8:65536", 'has an invalid port "65536"'],
    ["10.0.0.0/8:http", 'has an invalid port "http"'],
    ["10.0.0.0/8:90-80", 'has a port range "90-80" that ends before it starts'],
    ["10.0.0.0/8:80,,443", "has an empty port"],
    ["[fd00::/8]443", "is not a network: expected [IPv6 CIDR]:ports"],
    ["[fd00::/8:443", "is not a network"],
    ["intranet:80", "is not a CIDR"],
    ["10.0.0.0/33:80", "has an invalid prefix length"],
  ])("refuses %j, naming the whole entry", (input, reason) => {
    let error: unknown;
    try {
      parseNetworkEntry(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CidrError);
    expect((error as CidrError).message).toContain(`${JSON.stringify(input)} ${reason}`);
  });

  it("splits a typed list: a bare port continues the entry before it", () => {
    expect(splitNetworkList("10.0.0.0/8, 192.168.1.10/32:8080,8443\n[fd00::/8]:443, 9443 127.0.0.1")).toEqual([
      "10.0.0.0/8",
      "192.168.1.10/32:8080,8443",
      "[fd00::/8]:443,9443",
      "127.0.0.1",
    ]);
    // After an entry without ports a number is an entry of its own (and a bad one, named).
    expect(splitNetworkList("10.0.0.0/8,8080")).toEqual(["10.0.0.0/8", "8080"]);
    expect(() => canonicalCidrs(splitNetworkList("10.0.0.0/8,8080"))).toThrow('"8080" is not a CIDR');
  });

  it("are read from FORAGE_PRIVATE_NETWORKS, and a bad one is a ConfigError naming it", () => {
    expect(loadConfig({ FORAGE_PRIVATE_NETWORKS: "10.0.0.0/8, 192.168.1.10/32:8080,8443, [fd00::/8]:443" }).privateNetworks).toEqual([
      "10.0.0.0/8",
      "192.168.1.10/32:8080,8443",
      "[fd00::/8]:443",
    ]);
    expect(() => loadConfig({ FORAGE_PRIVATE_NETWORKS: "10.0.0.0/8,192.168.1.10:99999" })).toThrow(ConfigError);
    expect(() => loadConfig({ FORAGE_PRIVATE_NETWORKS: "10.0.0.0/8,192.168.1.10:99999" })).toThrow(
      'Invalid environment: FORAGE_PRIVATE_NETWORKS: "192.168.1.10:99999" has an invalid port "99999"',
    );
  });
});

describe("a policy with ports", () => {
  const policy = new NetworkPolicy({ privateNetworks: ["10.0.0.0/8", "192.168.1.10/32:8080,8443", "[fd00::/8]:443", "127.0.0.1:9000-9001"] });
  const refused = (address: string, port?: number) => policy.check(address, address, port)?.message ?? null;

  it("opens an entry without ports on every port, one with ports on those only", () => {
    expect(refused("10.9.9.9", 22)).toBeNull();
    expect(refused("192.168.1.10", 8080)).toBeNull();
    expect(refused("192.168.1.10", 8443)).toBeNull();
    expect(refused("fd00::5", 443)).toBeNull();
    expect(refused("::ffff:127.0.0.1", 9001)).toBeNull(); // the IPv4 address it carries
    expect(refused("192.168.1.10", 22)).not.toBeNull();
    expect(refused("fd00::5", 80)).not.toBeNull();
    expect(refused("127.0.0.1", 9002)).not.toBeNull();
    // Without a port only entries open on every port count.
    expect(refused("192.168.1.10")).not.toBeNull();
    expect(refused("10.1.1.1")).toBeNull();
  });

  it("refuses a closed port in the same words as an address outside the policy: which one is not told", () => {
    expect(refused("192.168.1.10", 22)).toBe("refused: 192.168.1.10 is a private address not in the server's network policy");
    expect(refused("192.168.1.10", 8081)).toBe(refused("192.168.1.10", 22));
    expect(new NetworkPolicy().check("192.168.1.10", "192.168.1.10", 8080)?.message).toBe(refused("192.168.1.10", 22));
  });

  it("never opens public addresses' ports less, nor metadata addresses at all", () => {
    expect(refused("93.184.216.34", 1)).toBeNull();
    const everything = new NetworkPolicy({ privateNetworks: ["0.0.0.0/0:80", "169.254.169.254:80"] });
    expect(everything.check("169.254.169.254", "169.254.169.254", 80)?.message).toBe("refused: 169.254.169.254 is a cloud-metadata address");
  });
});

describe("verdicts remembered per address and port", () => {
  it("gives the same verdicts when a pair is checked again: an allowed port does not open another", () => {
    const policy = new NetworkPolicy({ privateNetworks: ["192.168.1.10/32:8080"] });
    for (let round = 0; round < 3; round++) {
      expect(policy.check("h", "192.168.1.10", 8080)).toBeNull();
      expect(policy.check("h", "192.168.1.10", 8081)?.message).toMatch(/private|not allowed|refused/i);
      expect(policy.check("h", "192.168.1.10")).not.toBeNull(); // no port: only entries open on every port
      expect(policy.check("h", "169.254.169.254", 80)).not.toBeNull(); // cloud metadata, never
      expect(policy.check("h", "93.184.216.34", 443)).toBeNull();
    }
    // Another policy remembers nothing of this one's.
    expect(new NetworkPolicy().check("h", "192.168.1.10", 8080)).not.toBeNull();
  });
});
