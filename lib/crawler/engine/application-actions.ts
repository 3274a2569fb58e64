import type { ApplicationEnumeration, RecognisedApplication, SiteApplications } from "./site-applications";
import type { CrawlSink } from "./types";

/** Tag paths of enumeration actions start with this: no page has such a path, so each is an action of its own. */
export const APPLICATION_TAG_PATH_PREFIX = "/application:";

/** The action (tag path) of an enumeration. */
export function enumerationTagPath(key: string): string {
  return `${APPLICATION_TAG_PATH_PREFIX}${key}`;
}

export function isApplicationTagPath(tagPath: string): boolean {
  return tagPath.startsWith(APPLICATION_TAG_PATH_PREFIX);
}

/** Plain JSON, checkpointed with the engine. */
export interface ApplicationActionsState {
  applications: RecognisedApplication[];
  /** Per enumeration key: pages read, files listed, and why it closed (absent while open). */
  progress: [key: string, pages: number, files: number, closed: string | null][];
}

interface EnumerationProgress {
  enumeration: ApplicationEnumeration;
  application: RecognisedApplication;
  pages: number;
  files: number;
  closed: string | null;
}

/**
 * The recognised applications of a crawl and their enumerations, by action (tag path): which
 * are open, what each has listed, and the events that tell the user. The engine makes the
 * requests; this keeps the bookkeeping and the words.
 */
export class ApplicationActions {
  private readonly applications: RecognisedApplication[] = [];
  private readonly byTagPath = new Map<string, EnumerationProgress>();

  constructor(
    readonly source: SiteApplications,
    private readonly sink: CrawlSink,
  ) {}

  static fromState(source: SiteApplications, sink: CrawlSink, state: ApplicationActionsState): ApplicationActions {
    const actions = new ApplicationActions(source, sink);
    const progress = new Map(state.progress.map(([key, pages, files, closed]) => [key, { pages, files, closed }]));
    for (const application of state.applications) {
      for (const entry of actions.register(application)) {
        const saved = progress.get(entry.enumeration.key);
        if (saved) Object.assign(entry, saved);
      }
    }
    return actions;
  }

  toState(): ApplicationActionsState {
    return {
      applications: this.applications.map((application) => ({ ...application })),
      progress: [...this.byTagPath.values()].map((entry) => [entry.enumeration.key, entry.pages, entry.files, entry.closed]),
    };
  }

  get recognised(): readonly RecognisedApplication[] {
    return this.applications;
  }

  /** Adds a recognised application; returns its enumerations (to file as actions). */
  add(application: RecognisedApplication): ApplicationEnumeration[] {
    const entries = this.register(application);
    this.announce(application, entries);
    return entries.map((entry) => entry.enumeration);
  }

  private announce(application: RecognisedApplication, entries: readonly EnumerationProgress[]): void {
    const names = entries.map((entry) => entry.enumeration.name);
    const version = application.version ? ` ${application.version}` : "";
    const how = names.length > 0 ? `listing files through ${names.join(", ")}` : "no listing of its files is known for it";
    this.sink.event({
      level: "info",
      kind: "application-recognised",
      message: `Recognised ${application.name}${version} from ${application.evidence.join(", ")}${application.probeUrl ? " (confirmed by its API)" : ""} — ${how}`,
      data: {
        ...application,
        actions: entries.map((entry) => ({ tagPath: enumerationTagPath(entry.enumeration.key), name: entry.enumeration.name })),
      },
    });
  }

  private register(application: RecognisedApplication): EnumerationProgress[] {
    this.applications.push(application);
    const entries: EnumerationProgress[] = [];
    for (const enumeration of this.source.enumerations(application)) {
      const tagPath = enumerationTagPath(enumeration.key);
      if (this.byTagPath.has(tagPath)) continue;
      const entry: EnumerationProgress = { enumeration, application, pages: 0, files: 0, closed: null };
      this.byTagPath.set(tagPath, entry);
      entries.push(entry);
    }
    return entries;
  }

  /** A candidate whose probe did not confirm it: the crawl goes on through the HTML, one request spent. */
  notConfirmed(application: RecognisedApplication, probeUrl: string, why: string): void {
    this.sink.event({
      level: "info",
      kind: "application-not-confirmed",
      message: `Signs of ${application.name} (${application.evidence.join(", ")}), but its API at ${probeUrl} ${why}: crawling through the site's pages`,
      data: { recipeId: application.recipeId, probeUrl, why },
    });
  }

  /** The open enumeration an action's link belongs to; null when the tag path is not one, or it closed. */
  enumerationOf(tagPath: string): ApplicationEnumeration | null {
    const entry = this.byTagPath.get(tagPath);
    return entry && entry.closed === null ? entry.enumeration : null;
  }

  /** Whether a link of the site belongs to a part every recognised application says to avoid. */
  avoids(url: string): boolean {
    for (const application of this.applications) if (this.source.avoids(application, url)) return true;
    return false;
  }

  /** The name of a recognised application that builds this page with scripts; null when none does. */
  scriptBuilt(url: string): string | null {
    for (const application of this.applications) if (this.source.scriptBuilt?.(application, url)) return application.name;
    return null;
  }

  pageRead(tagPath: string, files: number): void {
    const entry = this.byTagPath.get(tagPath);
    if (!entry) return;
    entry.pages += 1;
    entry.files += files;
  }

  /** The enumeration reached its last page. */
  finished(tagPath: string): void {
    const entry = this.byTagPath.get(tagPath);
    if (!entry || entry.closed !== null) return;
    entry.closed = "finished";
    this.sink.event({
      level: "info",
      kind: "enumeration-finished",
      message: `${entry.enumeration.name} listed ${entry.files} file${entry.files === 1 ? "" : "s"} in ${entry.pages} request${entry.pages === 1 ? "" : "s"}`,
      data: { tagPath, pages: entry.pages, files: entry.files },
    });
  }

  /** The enumeration cannot go on: closed with the reason; the crawl goes on through the HTML. */
  close(tagPath: string, url: string, why: string): void {
    const entry = this.byTagPath.get(tagPath);
    if (!entry || entry.closed !== null) return;
    entry.closed = why;
    this.sink.event({
      level: "warn",
      kind: "enumeration-closed",
      message: `Stopped using ${entry.enumeration.name}: ${url} ${why}. The crawl goes on through the site's pages`,
      data: { tagPath, url, why, pages: entry.pages, files: entry.files },
    });
  }
}
