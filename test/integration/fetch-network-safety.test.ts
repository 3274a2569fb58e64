import type { LookupAddress } from "node:dns";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addressRange,
  assertFetchableUrl,
  createSafeLookup,
  HttpFetcher,
  isPublicAddress,
  PrivateNetworkRefusedError,
  UnsupportedSchemeError,
} from "../../lib/crawler/fetch";

let server: http.Server;
let port: number;
let hits = 0;
const strict = new HttpFetcher();
const open = new HttpFetcher({ allowPrivateNetwork: true });
const get = (fetcher: HttpFetcher, url: string) => fetcher.fetch({ method: "GET", url, maxBodyBytes: 1024, blockedMimePrefixes: [] });

beforeAll(async () => {
  server = http.createServer((_req, res) => (hits++, res.end("ok")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await Promise.all([strict.close(), open.close()]);
  await new Promise((resolve) => server.close(resolve));
});

describe("network safety", () => {
  it("refuses 127.0.0.1 by default without connecting, and does not retry it", async () => {
    const before = hits;
    const r = await get(strict, `http://127.0.0.1:${port}/`);
    expect(r).toMatchObject({ outcome: "error", status: 0, error: { code: "private-network-refused", retryable: false } });
    expect(hits).toBe(before);
  });

  it("refuses a name that resolves to loopback (checked after DNS, on the connection)", async () => {
    const r = await get(strict, `http://localhost:${port}/`);
    expect(r.error?.code).toBe("private-network-refused");
    expect(r.error?.message).toContain("localhost");
  });

  it("refuses IPv4-mapped IPv6 loopback", async () => {
    const r = await get(strict, `http://[::ffff:127.0.0.1]:${port}/`);
    expect(r.error?.code).toBe("private-network-refused");
  });

  it("connects to 127.0.0.1 when private networks are allowed", async () => {
    const r = await get(open, `http://127.0.0.1:${port}/`);
    expect(r).toMatchObject({ status: 200, outcome: "ok" });
  });

  it("only fetches http and https", async () => {
    expect(() => assertFetchableUrl("ftp://example.com/x", true)).toThrow(UnsupportedSchemeError);
    expect((await get(open, "file:///etc/passwd")).error?.code).toBe("unsupported-scheme");
    expect((await get(open, "not a url")).error?.code).toBe("invalid-url");
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["fe80::1", "linkLocal"],
    ["fd00::1", "uniqueLocal"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::a00:1", "private"],
  ])("classifies %s as %s", (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "64:ff9b::5db8:d822"])("accepts public %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("keeps the public addresses of a name and refuses names with none (DNS rebinding)", async () => {
    const fake = (answers: LookupAddress[]) =>
      ((_host: string, _opts: unknown, cb: (e: null, a: LookupAddress[]) => void) => cb(null, answers)) as never;
    const lookup = (answers: LookupAddress[], all: boolean) =>
      new Promise<{ err: unknown; address: unknown }>((resolve) =>
        createSafeLookup(fake(answers))("evil.example", { all }, (err, address) => resolve({ err, address })),
      );
    const mixed = await lookup([{ address: "10.0.0.1", family: 4 }, { address: "93.184.216.34", family: 4 }], true);
    expect(mixed.address).toEqual([{ address: "93.184.216.34", family: 4 }]);
    const single = await lookup([{ address: "93.184.216.34", family: 4 }], false);
    expect(single.address).toBe("93.184.216.34");
    const privateOnly = await lookup([{ address: "192.168.0.10", family: 4 }], false);
    expect(privateOnly.err).toBeInstanceOf(PrivateNetworkRefusedError);
    expect(privateOnly.err).toMatchObject({ host: "evil.example", address: "192.168.0.10", range: "private" });
  });
});
