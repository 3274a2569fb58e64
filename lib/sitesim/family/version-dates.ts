/**
 * When each version of an evolving family site was published: a month apart, version 1 on
 * 1 December 2025. The "updated <date>" markers and the files' Last-Modified use these dates.
 */

/** The first day of version `version`'s month, UTC. */
export function versionDate(version: number): Date {
  return new Date(Date.UTC(2025, 11 + (version - 1), 1));
}

/** "1 Feb 2026", as listings print dates. */
export function versionDateText(version: number): string {
  return versionDate(version).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/** The HTTP date of a version (Last-Modified). */
export function versionHttpDate(version: number): string {
  return versionDate(version).toUTCString();
}
