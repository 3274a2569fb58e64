/**
 * What the engine needs to know about the web application behind a site (CKAN, WordPress, …):
 * the crawler's side of application-aware crawling. The knowledge itself (recipes, their
 * recognition and the reading of each application's API) lives outside `lib/crawler` and is
 * handed to the engine through this interface (`lib/recipes/crawl-applications.ts`).
 */

/** An API answer as the engine received it. */
export interface ApiAnswer {
  status: number;
  /** Lower-case header names. */
  headers: ReadonlyMap<string, string>;
  body: string;
}

/** A file an application lists, typed from what the listing declares (checked again when downloaded). */
export interface ApplicationFile {
  url: string;
  mime?: string;
  /** When the application says the file last changed (ISO 8601 or close): a re-crawl checks a known file listed as changed since the previous run. */
  modified?: string;
  /** The record (dataset, item) it belongs to, when the application says. */
  record?: { title?: string; page?: string };
}

/** One page of an enumeration: its files, and the next page (null at the end or after a problem). */
export interface ApplicationListing {
  files: ApplicationFile[];
  records: number;
  nextUrl: string | null;
  /** Why the enumeration cannot go on, in words ("answered 404", "its JSON has no result.results"). */
  problem?: string;
}

/** A recognised application, as plain JSON (kept in checkpoints and in a re-crawl's basis). */
export interface RecognisedApplication {
  /** The recipe's id ("ckan"). */
  recipeId: string;
  /** Its display name ("CKAN"). */
  name: string;
  version?: string;
  /** Where the application lives (its API paths are relative to it). */
  base: string;
  /** What gave it away ("generator tag “ckan 2.10.4”"). */
  evidence: string[];
  /** The probe that confirmed it, when the recipe has one. */
  probeUrl?: string;
}

/** A candidate seen on a page: confirmed by a probe when `probe` is set, else by its signs alone. */
export interface ApplicationCandidate {
  application: RecognisedApplication;
  probe?: {
    url: string;
    /** Whether the probe's answer confirms the application (and the version it states). */
    check(answer: ApiAnswer): { confirmed: true; version?: string } | { confirmed: false; why: string };
  };
}

/** An enumeration of a recognised application: one bandit action. */
export interface ApplicationEnumeration {
  /** Unique per crawl ("ckan:package-search"): names its action. */
  key: string;
  /** For people ("CKAN package_search (every dataset with its resources)"). */
  name: string;
  /** `since`: only what changed after it (a re-crawl), when the application can say. */
  firstUrl(since?: Date): string;
  /** Whether `firstUrl(since)` asks only for what changed. */
  listsChangesSince: boolean;
  /** Never throws (nor rejects): an unexpected answer is a listing with a `problem`. Asynchronous for RDF catalogs. */
  read(pageUrl: string, answer: ApiAnswer): ApplicationListing | Promise<ApplicationListing>;
}

export interface SiteApplications {
  /** Candidates from a page the crawl fetched anyway (no request). */
  recognise(page: { url: string; html: string; headers: ReadonlyArray<readonly [string, string]> }): ApplicationCandidate[];
  /** The candidates the crawl's settings name without any sign (a recipe chosen by the user). */
  chosen(rootUrl: string): ApplicationCandidate[];
  /** The enumerations a recognised application offers. */
  enumerations(application: RecognisedApplication): ApplicationEnumeration[];
  /** URLs of the application not worth crawling (sign-in, edit, search, feeds…). */
  avoids(application: RecognisedApplication, url: string): boolean;
  /** Whether the application builds this page with scripts (its recipe's `scriptBuilt`): rendered in `auto`. */
  scriptBuilt?(application: RecognisedApplication, url: string): boolean;
  /**
   * Files a page states in a standard form (schema.org `Dataset` in JSON-LD), on any page of any
   * site; cheap when the page has none. Absent: none are read.
   */
  filesOnPage?(page: { url: string; html: string }): ApplicationFile[] | Promise<ApplicationFile[]>;
}
