/**
 * Attacks on a network policy that opens one port of a private host (127.0.0.1/32:ALLOWED): a
 * member's crawls and webhooks probe other ports of that host, one with a server listening and
 * one closed. Nothing may connect there, and every error a member can read (request rows,
 * crawl events, webhook attempts, the API's 400 on a webhook URL) must be the same for both,
 * or the texts would map which ports are open. Real servers on 127.0.0.1, real database.
 */
import dc from "node:diagnostics_channel";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpFetcher, NetworkPolicy } from "../../lib/crawler/fetch";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { InvalidRequestError } from "../../lib/errors";
import { checkWebhookReachable } from "../../lib/harvest/harvest-input";
import { createWebhookSender } from "../../lib/harvest/webhook-sender";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { saveNetworkPolicy } from "../../lib/store/commands/save-network-policy";
import { getServerPrivateNetworks } from "../../lib/store/queries/get-network-policy";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { freePort } from "../helpers/ports";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { listenOnFreePort } from "../helpers/ports";

/** Every TCP connection attempt of this process ("ip:port"). */
const attempts: string[] = [];
const onSocket = ({ socket }: { socket: Socket }) => void socket.on("connectionAttempt", (ip: string, port: number) => attempts.push(`${ip}:${port}`));

let t: TestDatabase;
let allowed: http.Server;
let listening: http.Server;
let allowedPort: number;
let listeningPort: number;
/** Nothing listens there: a connection would be refused (ECONNREFUSED). */
let closedPort: number;
let listeningHits = 0;

async function listen(handler: http.RequestListener): Promise<[http.Server, number]> {
  const server = http.createServer(handler);
  await listenOnFreePort(server);
  return [server, (server.address() as AddressInfo).port];
}

beforeAll(async () => {
  dc.subscribe("net.client.socket", onSocket as (message: unknown) => void);
  t = await createTestDatabase();
  [allowed, allowedPort] = await listen((req, res) => {
    if (req.method === "POST") return void res.writeHead(204).end();
    // Redirect hops to the other ports: each hop is a connection of its own, checked again.
    if (req.url === "/go-open.csv") return void res.writeHead(302, { location: `http://127.0.0.1:${listeningPort}/data.csv` }).end();
    if (req.url === "/go-closed.csv") return void res.writeHead(302, { location: `http://127.0.0.1:${closedPort}/data.csv` }).end();
    res.writeHead(200, { "content-type": "text/html" }).end('<html><body><a href="/go-open.csv">a</a><a href="/go-closed.csv">b</a></body></html>');
  });
  [listening, listeningPort] = await listen((_req, res) => {
    listeningHits++;
    res.writeHead(200, { "content-type": "text/html" }).end("<html><body>secret</body></html>");
  });
  closedPort = await freePort();
  await saveNetworkPolicy(t.db, [`127.0.0.1/32:${allowedPort}`]);
});

afterAll(async () => {
  dc.unsubscribe("net.client.socket", onSocket as (message: unknown) => void);
  await new Promise((resolve) => allowed?.close(resolve));
  await new Promise((resolve) => listening?.close(resolve));
  await t?.dispose();
});

const probed = () => attempts.filter((a) => a.endsWith(`:${listeningPort}`) || a.endsWith(`:${closedPort}`));
/** A text with the probed port (the member's own input, e.g. in a URL) written as PORT. */
const withoutPort = (text: string, port: number) => text.replaceAll(String(port), "PORT");

describe("a policy that opens one port of 127.0.0.1", () => {
  it("lets the fetcher reach that port, and refuses the others before connecting, in one text", async () => {
    const fetcher = new HttpFetcher({ privateNetworks: [`127.0.0.1/32:${allowedPort}`] });
    try {
      const get = (url: string) => fetcher.fetch({ method: "GET", url, maxBodyBytes: 1024, blockedMimePrefixes: [] });
      expect(await get(`http://127.0.0.1:${allowedPort}/`)).toMatchObject({ status: 200, outcome: "ok" });
      const texts = [];
      for (const host of ["127.0.0.1", "localhost", "[::ffff:127.0.0.1]"]) {
        for (const port of [listeningPort, closedPort]) {
          const result = await get(`http://${host}:${port}/`);
          expect(result.error?.code, `${host}:${port}`).toBe("private-network-refused");
          texts.push(result.error?.message);
        }
      }
      expect(texts[0]).toBe("refused: 127.0.0.1 is a loopback address not in the server's network policy");
      expect(texts[1]).toBe(texts[0]);
      expect(texts[3]).toBe(texts[2]); // by name: refused after DNS, in the lookup
      expect(texts[5]).toBe(texts[4]);
      expect(probed()).toEqual([]);
      expect(listeningHits).toBe(0);
    } finally {
      await fetcher.close();
    }
  });

  it("gives a member's crawls of a listening and of a closed port the same request rows and events", async () => {
    const crawl = async (port: number) => {
      const { id } = await createCrawl(t.db, { rootUrl: `http://127.0.0.1:${port}/`, seed: 1, budget: { requests: 5 }, politeness: { delayMs: 0, obeyRobots: false } });
      await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal });
      const rows = await t.db.crawlRequest.findMany({ where: { crawlId: id }, orderBy: { seq: "asc" }, select: { method: true, status: true, outcome: true, error: true } });
      // Checkpoint statistics are timings of this process, not of the target: left out.
      const events = await t.db.crawlEvent.findMany({ where: { crawlId: id, kind: { not: "checkpoints" } }, orderBy: { id: "asc" }, select: { level: true, kind: true, message: true } });
      const row = await t.db.crawl.findUniqueOrThrow({ where: { id }, select: { status: true, stopReason: true, stopDetail: true, errorsCount: true } });
      return JSON.parse(withoutPort(JSON.stringify({ rows, events, row }), port)) as unknown;
    };
    const open = await crawl(listeningPort);
    const closed = await crawl(closedPort);
    expect(closed).toEqual(open);
    expect(JSON.stringify(open)).toContain("refused: 127.0.0.1 is a loopback address not in the server's network policy");
    expect(probed()).toEqual([]);
    expect(listeningHits).toBe(0);
  });

  it("refuses redirect hops from the open port to the others in one text, without connecting", async () => {
    const { id } = await createCrawl(t.db, { rootUrl: `http://127.0.0.1:${allowedPort}/`, seed: 1, budget: { requests: 20 }, politeness: { delayMs: 0, obeyRobots: false } });
    await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal });
    const rows = await t.db.crawlRequest.findMany({ where: { crawlId: id }, orderBy: { seq: "asc" }, select: { url: true, status: true, error: true } });
    expect(rows.find((row) => row.url === `http://127.0.0.1:${allowedPort}/`)?.status).toBe(200);
    const hop = (port: number) => rows.filter((row) => row.url.startsWith(`http://127.0.0.1:${port}/`)).map((row) => ({ ...row, url: withoutPort(row.url, port) }));
    expect(hop(listeningPort).length).toBeGreaterThan(0);
    expect(hop(closedPort)).toEqual(hop(listeningPort));
    expect(hop(listeningPort).every((row) => row.error === "private-network-refused: refused: 127.0.0.1 is a loopback address not in the server's network policy")).toBe(true);
    expect(probed()).toEqual([]);
    expect(listeningHits).toBe(0);
  });

  it("gives a member's webhooks to a listening and to a closed port the same failure", async () => {
    const sender = createWebhookSender({ privateNetworks: await getServerPrivateNetworks(t.db, []), timeoutMs: 5_000 });
    try {
      expect(await sender(`http://127.0.0.1:${allowedPort}/hook`, "{}", {})).toEqual({ ok: true, status: 204 });
      const open = await sender(`http://127.0.0.1:${listeningPort}/hook`, "{}", {});
      const closed = await sender(`http://127.0.0.1:${closedPort}/hook`, "{}", {});
      const byName = await sender(`http://localhost:${listeningPort}/hook`, "{}", {});
      const byNameClosed = await sender(`http://localhost:${closedPort}/hook`, "{}", {});
      expect(open).toEqual({ ok: false, status: null, error: "refused: 127.0.0.1 is a loopback address not in the server's network policy" });
      expect(closed).toEqual(open);
      expect(byNameClosed).toEqual(byName);
      expect(byName.ok).toBe(false);
      expect(probed()).toEqual([]);
      expect(listeningHits).toBe(0);
    } finally {
      await sender.close();
    }
  });

  it("answers the API's webhook URL check (400) in one text for both ports, and accepts the open one", () => {
    const privateNetworks = [`127.0.0.1/32:${allowedPort}`];
    const refusal = (url: string) => {
      try {
        checkWebhookReachable(url, privateNetworks);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidRequestError);
        return (error as InvalidRequestError).fields;
      }
    };
    expect(refusal(`http://127.0.0.1:${allowedPort}/hook`)).toBeNull();
    expect(refusal(`http://127.0.0.1:${listeningPort}/hook`)).toEqual({
      webhookUrl: "is a private or reserved address (127.0.0.1: a loopback address); an admin can allow private networks in Settings",
    });
    expect(refusal(`http://127.0.0.1:${closedPort}/hook`)).toEqual(refusal(`http://127.0.0.1:${listeningPort}/hook`));
    // The default port of the scheme is the port checked.
    expect(refusal("http://127.0.0.1/hook")).toEqual(refusal(`http://127.0.0.1:${listeningPort}/hook`));
    expect(new NetworkPolicy({ privateNetworks: ["127.0.0.1:80"] }).check("127.0.0.1", "127.0.0.1", 80)).toBeNull();
  });
});
