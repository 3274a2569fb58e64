/**
 * `forage user add|disable|enable|reset-password|delete` on a test database (the commands given a
 * password on standard input in real processes, the others through the CLI's `main` in this
 * process): passwords from standard input and checked for strength, the same rules as the
 * dashboard (the last enabled admin stays), one-line errors with exit code 2, and each change in
 * the audit log as done from the command line (no actor, no address).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditEvents } from "../../lib/auth/audit-log";
import { authenticateUser } from "../../lib/auth/users";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestDatabase();
  env = { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir };
});

afterAll(async () => {
  await t?.dispose();
});

/** With `input` (a password on standard input) in a child process; without, `main` in this process. */
const forage = (args: string[], input?: string) => (input === undefined ? runForageInProcess(["user", ...args], env) : runForageCli(["user", ...args], env, input));

describe("forage user", () => {
  it("adds, disables, enables, resets and deletes users, refusing weak passwords and the last admin's removal", async () => {
    let result = await forage(["add", "boss@forage.test", "--admin", "--password-stdin"], "boss@forage.test\n");
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/password is too easy to guess/);
    result = await forage(["add", "boss@forage.test", "--admin", "--password-stdin"], "quiet harbour falcon 3\n");
    expect(result.code, result.stderr).toBe(0);
    result = await forage(["add", "crew@forage.test", "--password-stdin"], "amber meadow piano 6\n");
    expect(result.code, result.stderr).toBe(0);

    // The only admin cannot be disabled or deleted, even from the command line.
    for (const action of ["disable", "delete"]) {
      result = await forage([action, "boss@forage.test"]);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/last enabled admin/) });
    }
    result = await forage(["disable", "nobody@forage.test"]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/No user nobody@forage.test/) });
    result = await forage(["reset-password", "crew@forage.test"]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/--password-stdin/) });

    result = await forage(["disable", "Crew@Forage.test"]);
    expect(result.code, result.stderr).toBe(0);
    expect(await authenticateUser(t.db, "crew@forage.test", "amber meadow piano 6")).toBeNull();
    expect((await forage(["list"])).stdout).toMatch(/crew@forage\.test\t\S+\tdisabled/);
    expect((await forage(["enable", "crew@forage.test"])).code).toBe(0);
    expect(await authenticateUser(t.db, "crew@forage.test", "amber meadow piano 6")).not.toBeNull();

    result = await forage(["reset-password", "crew@forage.test", "--password-stdin"], "12345678\n");
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: expect.stringMatching(/password is too easy to guess/) });
    expect((await forage(["reset-password", "crew@forage.test", "--password-stdin"], "cobalt river thimble 4\n")).code).toBe(0);
    expect(await authenticateUser(t.db, "crew@forage.test", "cobalt river thimble 4")).not.toBeNull();

    expect((await forage(["delete", "crew@forage.test"])).code).toBe(0);
    expect(await t.db.user.count({ where: { email: "crew@forage.test" } })).toBe(0);

    const entries = await listAuditEvents(t.db);
    expect(entries.map((entry) => entry.action).reverse()).toEqual([
      "user-created",
      "user-created",
      "user-disabled",
      "user-enabled",
      "password-reset",
      "user-deleted",
    ]);
    for (const entry of entries) expect(entry).toMatchObject({ actorId: null, actorEmail: null, address: null, details: expect.objectContaining({ via: "cli" }) });
  });
});
