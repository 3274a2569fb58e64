/**
 * `forage detect` and `forage recipes` as a user runs them, against application-shaped sites on
 * 127.0.0.1: a WordPress with its REST API, one with the API switched off (401, WordPress's own
 * error body), one whose robots.txt disallows the API, a CKAN under a sub-path, and a plain site.
 * Each site counts the requests it gets, so the "few requests" promise is checked too. The first
 * detection and the recipes commands run in real processes; the other detections and refusals
 * run the CLI's `main` in this process (the same command, without a child's start-up).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";
import { listenOnFreePort } from "../helpers/ports";

interface Site {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

type Answer = { status?: number; type?: string; body: string; headers?: Record<string, string> };

/** Serves `routes(url)`, where url is the server's own address (a page may name its port). */
async function serve(routes: (url: string) => Record<string, Answer>): Promise<Site> {
  const hits: string[] = [];
  let table: Record<string, Answer> = {};
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? "");
    const answer = table[request.url ?? ""] ?? { status: 404, body: "not found" };
    response.writeHead(answer.status ?? 200, { "content-type": answer.type ?? "text/html; charset=utf-8", ...answer.headers });
    response.end(answer.body);
  });
  await listenOnFreePort(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  table = routes(url);
  return { url, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const wordpressHead = (apiRoot: string) =>
  `<!doctype html><html><head><meta name="generator" content="WordPress 6.4.2"><link rel="https://api.w.org/" href="${apiRoot}"><link rel="stylesheet" href="/wp-includes/css/dist/block-library/style.min.css"></head><body><a href="/?p=1">Hello</a></body></html>`;
const json = (body: unknown, status = 200): Answer => ({ status, type: "application/json; charset=UTF-8", body: JSON.stringify(body) });

let wordpress: Site;
let wordpressOff: Site;
let wordpressRobots: Site;
let ckan: Site;
let plain: Site;

beforeAll(async () => {
  wordpress = await serve((url) => ({
    "/": { body: wordpressHead(`${url}wp-json/`) },
    "/wp-json/": json({ name: "A blog", namespaces: ["oembed/1.0", "wp/v2"], routes: {} }),
  }));
  wordpressOff = await serve(() => ({
    "/": { body: `<html><head><meta name="generator" content="WordPress 6.4.2"></head><body></body></html>` },
    "/wp-json/": json({ code: "rest_login_required", message: "REST API restricted to authenticated users.", data: { status: 401 } }, 401),
  }));
  wordpressRobots = await serve(() => ({
    "/": { body: `<html><head><meta name="generator" content="WordPress 6.4.2"></head><body></body></html>` },
    "/robots.txt": { type: "text/plain", body: "User-agent: *\nDisallow: /wp-json/\n" },
    "/wp-json/": json({ namespaces: ["wp/v2"] }),
  }));
  ckan = await serve(() => ({
    "/data/dataset/": {
      body: `<html><head><meta name="generator" content="ckan 2.10.4"><link rel="stylesheet" href="/data/webassets/base/main.css"></head><body></body></html>`,
    },
    "/data/api/3/action/status_show": json({ help: "…", success: true, result: { site_title: "City data", ckan_version: "2.10.4", extensions: ["datastore"] } }),
  }));
  plain = await serve(() => ({ "/": { body: `<html><head><title>Statistics office</title></head><body><a href="/t.csv">t</a></body></html>` } }));
});

afterAll(async () => {
  await Promise.all([wordpress, wordpressOff, wordpressRobots, ckan, plain].map((site) => site?.close()));
});

const detect = (url: string) => runForageInProcess(["detect", url, "--allow-private-network"]);

describe("forage detect", () => {
  it("recognises WordPress from its page and confirms it with one probe of its REST API", async () => {
    const run = await runForageCli(["detect", wordpress.url, "--allow-private-network"]); // as a user runs it
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 application(s) recognised (3 request(s))");
    expect(run.stdout).toContain("WordPress 6.4.2");
    expect(run.stdout).toMatch(/signs: generator tag "WordPress 6\.4\.2"; link rel https:\/\/api\.w\.org\/; asset \/wp-includes\//);
    expect(run.stdout).toMatch(/probe: confirmed by http:\/\/127\.0\.0\.1:\d+\/wp-json\//);
    expect(run.stdout).toContain("actions: WordPress media library");
    expect(wordpress.hits).toEqual(["/", "/robots.txt", "/wp-json/"]);
  });

  it("says the API is refused when WordPress answers 401, and spends only the probe on it", async () => {
    const run = await detect(wordpressOff.url);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/probe: http:\/\/127\.0\.0\.1:\d+\/wp-json\/ answered 401/);
    expect(run.stdout).not.toContain("actions:");
    expect(wordpressOff.hits).toEqual(["/", "/robots.txt", "/wp-json/"]);
  });

  it("does not send a probe robots.txt disallows", async () => {
    const run = await detect(wordpressRobots.url);
    expect(run.stdout).toContain("robots.txt disallows the probe");
    expect(wordpressRobots.hits).toEqual(["/", "/robots.txt"]);
  });

  it("finds a CKAN under a sub-path and takes its version from the API", async () => {
    const run = await detect(`${ckan.url}data/dataset/`);
    expect(run.stdout).toMatch(/CKAN 2\.10\.4 at http:\/\/127\.0\.0\.1:\d+\/data\//);
    expect(run.stdout).toMatch(/probe: confirmed by http:\/\/127\.0\.0\.1:\d+\/data\/api\/3\/action\/status_show/);
    expect(ckan.hits).toEqual(["/data/dataset/", "/robots.txt", "/data/api/3/action/status_show"]);
  });

  it("recognises nothing on a plain site, in one request", async () => {
    const run = await detect(plain.url);
    expect(run.stdout).toContain("no known application recognised (1 request(s))");
    expect(plain.hits).toEqual(["/"]);
  });

  it("refuses a loopback site without --allow-private-network, and a non-URL, with one line and a non-zero exit", async () => {
    const refused = await runForageInProcess(["detect", plain.url]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    const bad = await runForageInProcess(["detect", "not a url"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"not a url" is not a URL');
  });
});

describe("forage recipes", () => {
  it("lists the shipped recipes and a folder's own, and checks files (exit 2 with the message)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-recipes-cli-"));
    try {
      const ours = JSON.parse(fs.readFileSync("lib/recipes/known/wordpress.json", "utf8")) as Record<string, unknown>;
      fs.writeFileSync(path.join(dir, "intranet.json"), JSON.stringify({ ...ours, id: "intranet-wp", name: "Intranet WP" }));
      const list = await runForageCli(["recipes", "list"], { FORAGE_RECIPES_DIR: dir });
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^ckan\s+CKAN\s+package-search\s+\[shipped\]$/m);
      expect(list.stdout).toMatch(/^intranet-wp\s+Intranet WP\s+media\s+\[.*intranet\.json\]$/m);

      fs.writeFileSync(path.join(dir, "bad.json"), JSON.stringify({ ...ours, enumerations: [{ id: "x" }] }));
      const check = await runForageCli(["recipes", "check", path.join(dir, "bad.json")]);
      expect(check.code).toBe(2);
      expect(check.stderr).toMatch(/bad\.json: enumerations\[0\]\.name: is required/);
      expect((await runForageCli(["recipes", "check", "lib/recipes/known/ckan.json"])).code).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
