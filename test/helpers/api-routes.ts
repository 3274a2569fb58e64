/**
 * The API integration tests call route handlers as plain functions with real Requests, on a
 * real database. app/_server/db.ts reads DATABASE_URL / FORAGE_DATA_DIR on first use: open the
 * database (which sets them) before importing a route.
 */
import { expect } from "vitest";
import { createTestAccount, type TestAccount } from "./test-accounts";
import { createTestDatabase, type TestBackend, type TestDatabase } from "./test-database";

/** The second argument Next.js gives a handler under `[id]`. */
export type RouteContext = { params: Promise<{ id: string }> };

export const ctx = (id: number | string): RouteContext => ({ params: Promise.resolve({ id: String(id) }) });
export const url = (path: string) => `http://localhost${path}`;

/** The admin the route tests act as (set by `openRouteDatabase`). */
let account: TestAccount | undefined;

/** The account `apiRequest` authenticates as. */
export function routeAccount(): TestAccount {
  if (!account) throw new Error("openRouteDatabase() first");
  return account;
}

/**
 * A Request as a script sends it: the test admin's bearer token, and a JSON Content-Type when
 * there is a body. `anonymous: true` sends no credentials.
 */
export function apiRequest(input: string, init: RequestInit & { anonymous?: boolean } = {}): Request {
  const { anonymous, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (!anonymous && !headers.has("authorization")) headers.set("authorization", `Bearer ${routeAccount().token}`);
  if (rest.body !== undefined && rest.body !== null && !headers.has("content-type")) headers.set("content-type", "application/json");
  return new Request(input, { ...rest, headers });
}

/** The API's one error shape (docs/API.md). */
export interface ErrorBody {
  error: { code: string; message: string; status: number; fields?: Record<string, string> };
}

/** A fresh test database that the app's route handlers will use (on the run's backend unless `backend` names one). */
export async function openRouteDatabase(options: { backend?: TestBackend } = {}): Promise<TestDatabase> {
  const t = await createTestDatabase(options);
  process.env.DATABASE_URL = t.config.databaseUrl;
  process.env.FORAGE_DATA_DIR = t.config.dataDir;
  // The route handlers answer as http://localhost (the Host of `url()`), on any port.
  process.env.FORAGE_PUBLIC_URL = "http://localhost";
  account = await createTestAccount(t.db);
  return t;
}

/** Closes the app's database client, then the test database. */
export async function closeRouteDatabase(t: TestDatabase | undefined): Promise<void> {
  const { getDb } = await import("@/app/_server/db");
  await (await getDb()).$disconnect();
  await t?.dispose();
}

/** POST /api/crawls with a JSON body (a string is sent as is). */
export function postCrawl(body: string | object): Request {
  return apiRequest(url("/api/crawls"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

type CrawlsRoute = typeof import("@/app/api/crawls/route");
type CrawlRoute = typeof import("@/app/api/crawls/[id]/route");

/** Creates a crawl through the API (201 expected) and returns its id. */
export async function createCrawlThroughApi(crawlsRoute: CrawlsRoute, body: object = { rootUrl: "https://www.example.org/" }): Promise<number> {
  const response = await crawlsRoute.POST(postCrawl(body));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** GET /api/crawls/:id (200 expected). */
export async function getCrawlDetail(crawlRoute: CrawlRoute, id: number) {
  const response = await crawlRoute.GET(apiRequest(url(`/api/crawls/${id}`)), ctx(id));
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & { status: string; pendingControl: string | null; config: Record<string, never> };
}

/** Checks an error response (status, code, the body's status) and returns its error. */
export async function expectError(response: Response, status: number, code: string): Promise<ErrorBody["error"]> {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, code: body.error.code }).toEqual({ status, code });
  expect(body.error.status).toBe(status);
  return body.error;
}
