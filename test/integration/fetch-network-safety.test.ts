import dc from "node:diagnostics_channel";
import type { LookupAddress } from "node:dns";
import http from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { createCrawlEngine } from "../../lib/crawler/engine/create-engine";
import { MemorySink } from "../../lib/crawler/engine/memory-sink";
import {
  addressRange,
  assertFetchableUrl,
  createSafeLookup,
  HostPoliteness,
  HttpFetcher,
  isPublicAddress,
  NetworkPolicy,
  PrivateNetworkRefusedError,
  UnsupportedSchemeError,
} from "../../lib/crawler/fetch";
import { listenOnFreePort } from "../helpers/ports";

/** Every TCP connection attempt of this process ("ip:port"), whoever makes it: what "nothing connects there" is checked on. */
const attempts: string[] = [];
const onSocket = ({ socket }: { socket: Socket }) => void socket.on("connectionAttempt", (ip: string, port: number) => attempts.push(`${ip}:${port}`));

let server: http.Server;
let port: number;
let origin: string;
let hits = 0;
const strict = new HttpFetcher();
const open = new HttpFetcher({ allowPrivateNetwork: true });
/** The policy of the attack: an admin who allowed all of link-local and loopback. */
const broad = new HttpFetcher({ privateNetworks: ["169.254.0.0/16", "127.0.0.0/8"] });
const get = (fetcher: HttpFetcher, url: string) => fetcher.fetch({ method: "GET", url, maxBodyBytes: 1024, blockedMimePrefixes: [] });

const METADATA_URLS = {
  "/to-metadata": "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "/to-mapped-metadata": "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "/to-decimal-metadata": "http://2852039166/computeMetadata/v1/",
  "/to-azure-wire-server": "http://168.63.129.16/machine?comp=goalstate",
  "/to-alibaba-metadata": "http://100.100.100.200/latest/meta-data/",
  "/to-aws-ipv6-metadata": "http://[fd00:ec2::254]/latest/meta-data/",
} as const;

beforeAll(async () => {
  dc.subscribe("net.client.socket", onSocket as (message: unknown) => void);
  server = http.createServer((req, res) => {
    hits++;
    const location = METADATA_URLS[req.url as keyof typeof METADATA_URLS];
    if (location) return void res.writeHead(302, { location, "content-length": "0" }).end();
    if (req.url === "/") {
      const links = Object.keys(METADATA_URLS).map((path) => `<a href="${path}">${path}</a>`).join("");
      return void res.writeHead(200, { "content-type": "text/html" }).end(`<html><body>${links}</body></html>`);
    }
    res.end("ok");
  });
  port = await listenOnFreePort(server);
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  dc.unsubscribe("net.client.socket", onSocket as (message: unknown) => void);
  await Promise.all([strict.close(), open.close(), broad.close()]);
  await new Promise((resolve) => server.close(resolve));
});

const metadataAttempts = () => attempts.filter((a) => /^(169\.254\.169\.254|::ffff:169\.254\.169\.254|::ffff:a9fe:a9fe|168\.63\.129\.16|100\.100\.100\.200|fd00:ec2::254):/.test(a));

describe("network safety", () => {
  it("refuses 127.0.0.1 by default without connecting, and does not retry it", async () => {
    const before = hits;
    const r = await get(strict, `http://127.0.0.1:${port}/`);
    expect(r).toMatchObject({ outcome: "error", status: 0, error: { code: "private-network-refused", retryable: false } });
    expect(r.error?.message).toBe("refused: 127.0.0.1 is a loopback address not in the server's network policy");
    expect(hits).toBe(before);
  });

  it("refuses a name that resolves to loopback (checked after DNS, on the connection)", async () => {
    const r = await get(strict, `http://localhost:${port}/`);
    expect(r.error?.code).toBe("private-network-refused");
    expect(r.error?.message).toMatch(/^refused: (127\.0\.0\.1|::1) \(localhost\) is a loopback address not in the server's network policy$/);
  });

  it("refuses IPv4-mapped IPv6 loopback", async () => {
    const r = await get(strict, `http://[::ffff:127.0.0.1]:${port}/`);
    expect(r.error?.code).toBe("private-network-refused");
  });

  it("connects to 127.0.0.1 when private networks are allowed", async () => {
    const r = await get(open, `http://127.0.0.1:${port}/x`);
    expect(r).toMatchObject({ status: 200, outcome: "ok" });
  });

  it("connects to 127.0.0.1 when a CIDR of the policy covers it, by address and by name", async () => {
    const exact = new HttpFetcher({ privateNetworks: ["127.0.0.1/32"] });
    try {
      expect(await get(exact, `http://127.0.0.1:${port}/x`)).toMatchObject({ status: 200, outcome: "ok" });
      // localhost may resolve to ::1 first: the lookup keeps the allowed 127.0.0.1.
      expect(await get(exact, `http://localhost:${port}/x`)).toMatchObject({ status: 200, outcome: "ok" });
      const other = await get(exact, `http://127.0.0.2:${port}/x`);
      expect(other.error?.message).toBe("refused: 127.0.0.2 is a loopback address not in the server's network policy");
    } finally {
      await exact.close();
    }
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
    ["::a9fe:a9fe", "linkLocal"],
  ])("classifies %s as %s", (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "64:ff9b::5db8:d822"])("accepts public %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  const fake = (answers: LookupAddress[]) =>
    ((_host: string, _opts: unknown, cb: (e: null, a: LookupAddress[]) => void) => cb(null, answers)) as never;
  const lookup = (answers: LookupAddress[], all: boolean, policy = NetworkPolicy.publicOnly()) =>
    new Promise<{ err: unknown; address: unknown }>((resolve) =>
      createSafeLookup(policy, fake(answers))("evil.example", { all }, (err, address) => resolve({ err, address })),
    );

  it("keeps the public addresses of a name and refuses names with none (DNS rebinding)", async () => {
    const mixed = await lookup([{ address: "10.0.0.1", family: 4 }, { address: "93.184.216.34", family: 4 }], true);
    expect(mixed.address).toEqual([{ address: "93.184.216.34", family: 4 }]);
    const single = await lookup([{ address: "93.184.216.34", family: 4 }], false);
    expect(single.address).toBe("93.184.216.34");
    const privateOnly = await lookup([{ address: "192.168.0.10", family: 4 }], false);
    expect(privateOnly.err).toBeInstanceOf(PrivateNetworkRefusedError);
    expect(privateOnly.err).toMatchObject({ host: "evil.example", address: "192.168.0.10", range: "private" });
    expect((privateOnly.err as Error).message).toBe("refused: 192.168.0.10 (evil.example) is a private address not in the server's network policy");
  });

  it("refuses a name resolving to a metadata address even when every private range is allowed", async () => {
    const everything = new NetworkPolicy({ allowAllPrivate: true, privateNetworks: ["0.0.0.0/0", "::/0"] });
    const aws = await lookup([{ address: "169.254.169.254", family: 4 }, { address: "10.0.0.1", family: 4 }], true, everything);
    expect(aws.address).toEqual([{ address: "10.0.0.1", family: 4 }]);
    const only = await lookup([{ address: "::ffff:169.254.169.254", family: 6 }, { address: "fd00:ec2::254", family: 6 }], false, everything);
    expect(only.err).toMatchObject({ range: "cloudMetadata" });
    expect((only.err as Error).message).toBe("refused: ::ffff:169.254.169.254 (evil.example) is a cloud-metadata address");
  });
});

describe("network safety on redirects (a 127.0.0.1 site sends the crawler to cloud-metadata addresses)", () => {
  it.each(Object.entries(METADATA_URLS))("refuses the hop %s → %s before any connection, policy 169.254.0.0/16 + 127.0.0.0/8", async (path, location) => {
    const hop = await get(broad, `${origin}${path}`);
    expect(hop).toMatchObject({ status: 302, location: new URL(location).href });
    const before = attempts.length;
    const r = await get(broad, hop.location!);
    expect(r).toMatchObject({ outcome: "error", status: 0, error: { code: "private-network-refused", retryable: false } });
    expect(r.error?.message).toMatch(/^refused: \S+ is a cloud-metadata address$/);
    expect(attempts.slice(before)).toEqual([]);
  });

  it.each([true, false])("refuses them in the crawl itself (robots.txt obeyed: %s): the request log says why, no connection goes there", async (obeyRobots) => {
    const config = parseCrawlConfig({ rootUrl: `${origin}/`, seed: 3, budget: { requests: 40 }, politeness: { delayMs: 0, obeyRobots } });
    expect(config.allowPrivateNetwork).toBe(false);
    const sink = new MemorySink();
    const before = attempts.length;
    const run = createCrawlEngine({
      config,
      sink,
      signal: new AbortController().signal,
      politeness: new HostPoliteness(),
      privateNetworks: ["169.254.0.0/16", "127.0.0.0/8"],
      keepPageBodies: false,
    });
    try {
      await run.engine.run();
    } finally {
      await run.close();
    }
    const newAttempts = attempts.slice(before);
    expect(newAttempts.length).toBeGreaterThan(0); // the site itself was crawled
    expect(newAttempts.every((a) => a === `127.0.0.1:${port}`)).toBe(true);
    expect(metadataAttempts()).toEqual([]);
    const hops = sink.requests.filter((row) => row.redirectTo !== null).map((row) => row.redirectTo);
    expect(hops).toEqual(expect.arrayContaining(Object.values(METADATA_URLS).map((u) => new URL(u).href)));
    const refusal = /^private-network-refused: refused: \S+ is a cloud-metadata address$/;
    const metadataHosts = new Set(Object.values(METADATA_URLS).map((u) => new URL(u).hostname));
    const rows = sink.requests.filter((row) => metadataHosts.has(new URL(row.url).hostname));
    // Each metadata URL was tried: a GET refused, or, with robots.txt obeyed, its robots.txt refused
    // (one per host) and the URL then skipped as robots-unreachable.
    expect(new Set(rows.filter((row) => row.kind !== "robots").map((row) => row.url))).toEqual(new Set(Object.values(METADATA_URLS).map((u) => new URL(u).href)));
    for (const row of rows) {
      expect(row.status).toBeNull();
      if (row.outcome === "robots-disallowed") expect(row.error).toBe("robots.txt: unreachable: private-network-refused");
      else expect(row.error).toMatch(refusal);
    }
    expect(rows.some((row) => row.kind === "robots")).toBe(obeyRobots);
  });

  it("says which private address was refused and why when the policy lacks it", async () => {
    const loopbackOnly = new HttpFetcher({ privateNetworks: ["127.0.0.0/8"] });
    try {
      const r = await get(loopbackOnly, "http://10.1.2.3/");
      expect(r.error?.message).toBe("refused: 10.1.2.3 is a private address not in the server's network policy");
      const link = await get(loopbackOnly, "http://169.254.10.1/");
      expect(link.error?.message).toBe("refused: 169.254.10.1 is a link-local address not in the server's network policy");
    } finally {
      await loopbackOnly.close();
    }
  });
});
