import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { passwordProblem } from "./passwords";

/**
 * How hard a new password is to guess, by zxcvbn (Dropbox's estimator, the @zxcvbn-ts port):
 * dictionaries of common passwords, words and names, keyboard patterns, dates, l33t speak, and
 * the account's own email, whose parts make a password weak ("ann@example.org" → "ann2024!").
 * Length limits (lib/auth/passwords.ts) come first, so nothing huge reaches the estimator.
 */

/** zxcvbn's scale is 0–4; 3 is "safely unguessable: moderate protection from offline slow-hash attacks". */
export const MIN_PASSWORD_SCORE = 3;
/**
 * zxcvbn runs on the event loop and its cost grows fast with length and with l33t-looking
 * characters: unbounded, a 100-character "a1!a1!…" took 2.5 s and a 64-character one 1.8 s here,
 * a denial of service for anyone who may set a password. A password whose first 64 characters are
 * strong is strong; with l33t substitutions capped at 8 (zxcvbn's default is 100) the worst inputs
 * we tried take ~0.15 s and common l33t passwords ("P@ssw0rd!") are still caught.
 */
const CHECKED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 8;

let factory: Promise<ZxcvbnFactory> | undefined;

/** The estimator with its dictionaries (a few MB), built once, on the first password checked. */
function estimator(): Promise<ZxcvbnFactory> {
  factory ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]);
    return new ZxcvbnFactory({
      translations: en.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
    });
  })();
  factory.catch(() => {
    factory = undefined; // a failed load is tried again next time
  });
  return factory;
}

/** The email and its parts, as zxcvbn's "user inputs": "ann.lee@example.org" → ann.lee@example.org, ann.lee, ann, lee, example.org, example, org. */
export function emailParts(email: string): string[] {
  const lower = email.trim().toLowerCase();
  const [local = "", domain = ""] = lower.split("@");
  const words = lower.split(/[^a-z0-9]+/).filter((word) => word.length >= 3);
  return [...new Set([lower, local, domain, ...words].filter(Boolean))];
}

/**
 * Why this password cannot be set, as a field message ("is too easy to guess: …"), or null.
 * @param email the account's email, so that passwords made of it are refused.
 */
export async function passwordStrengthProblem(password: string, email?: string): Promise<string | null> {
  const lengthProblem = passwordProblem(password);
  if (lengthProblem) return lengthProblem;
  const result = (await estimator()).check(password.slice(0, CHECKED_LENGTH), email ? emailParts(email) : []);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter((text): text is string => Boolean(text));
  return `is too easy to guess${advice.length > 0 ? `: ${advice.join(" ")}` : ": add a few uncommon words"}`;
}
