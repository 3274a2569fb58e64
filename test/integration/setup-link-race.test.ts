/**
 * The one-time setup link attacked by simultaneous requests: six POSTs with one link, each for
 * another email, must make exactly one admin, on SQLite and on PostgreSQL. A refused password
 * must not use the link up.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSetupLink } from "../../lib/auth/setup-link";
import { apiRequest, closeRouteDatabase, expectError, openRouteDatabase, url } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;

beforeAll(async () => {
  t = await openRouteDatabase();
  // A server without users, as on the first `npm start`.
  await t.db.apiToken.deleteMany();
  await t.db.session.deleteMany();
  await t.db.user.deleteMany();
});

afterAll(async () => {
  await closeRouteDatabase(t);
});

describe("the setup link under concurrency", () => {
  it("keeps the link after a refused password, then makes exactly one admin of six simultaneous uses", async () => {
    const setup = await import("@/app/api/auth/setup/route");
    const secret = (await issueSetupLink(t.db))!;
    const post = (email: string, password = "a long enough passphrase 7") =>
      setup.POST(apiRequest(url("/api/auth/setup"), { method: "POST", anonymous: true, body: JSON.stringify({ token: secret, email, password }) }));

    const weak = await expectError(await post("weak@forage.test", "short"), 400, "invalid_request");
    expect(weak.fields?.password).toBeDefined();

    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(`admin${i}@forage.test`)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400]);
    expect(await t.db.user.count()).toBe(1);
    expect(await t.db.user.count({ where: { role: "admin" } })).toBe(1);
    expect(await t.db.serverSetting.findUnique({ where: { key: "setup-link" } })).toBeNull();
  });
});
