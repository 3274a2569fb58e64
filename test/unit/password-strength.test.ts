/**
 * The password strength rule (lib/auth/password-strength.ts): zxcvbn's score with the account's
 * email counting against the password, the length limits first, and a message fit to follow
 * the field's label.
 */
import { describe, expect, it } from "vitest";
import { emailParts, passwordStrengthProblem } from "../../lib/auth/password-strength";

describe("passwordStrengthProblem", () => {
  it("refuses common, keyboard and email-made passwords with zxcvbn's advice", async () => {
    expect(await passwordStrengthProblem("password123")).toMatch(/^is too easy to guess: This is a commonly used password/);
    expect(await passwordStrengthProblem("qwertyuiop")).toMatch(/^is too easy to guess/);
    expect(await passwordStrengthProblem("ann.lee@example.org1", "ann.lee@example.org")).toMatch(/personal/);
    expect(await passwordStrengthProblem("P@ssw0rd!")).toMatch(/too easy to guess/);
  });

  it("accepts a few uncommon words, and keeps the length limits", async () => {
    expect(await passwordStrengthProblem("violet ledger canoe 81", "ann.lee@example.org")).toBeNull();
    expect(await passwordStrengthProblem("Tr0ub4dor&3x")).toBeNull();
    expect(await passwordStrengthProblem("short")).toBe("must be at least 8 characters");
    expect(await passwordStrengthProblem("x".repeat(257))).toBe("must be at most 256 characters");
  });

  it("checks the slowest inputs quickly: zxcvbn blocks the event loop (only the first 64 characters, few l33t substitutions)", async () => {
    await passwordStrengthProblem("warm-up passphrase 1");
    // Unbounded, each of these took 1.5 to 2.5 s on this machine.
    for (const slow of ["a1!".repeat(85), "p4ssw0rd".repeat(32), "$1@0!|".repeat(42)]) {
      const started = performance.now();
      await passwordStrengthProblem(slow);
      expect(performance.now() - started, slow.slice(0, 12)).toBeLessThan(750);
    }
  });
});

describe("emailParts", () => {
  it("gives the email, its local part, domain and words", () => {
    expect(emailParts(" Ann.Lee@Example.org ")).toEqual(["ann.lee@example.org", "ann.lee", "example.org", "ann", "lee", "example", "org"]);
  });
});
