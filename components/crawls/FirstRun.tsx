import Link from "next/link";
import { DemoCrawlButton } from "./DemoCrawlButton";

/** The empty state of a new installation: what happens next, and one click to see it happen. */
export function FirstRun({ demoPort }: { demoPort: number }) {
  return (
    <div className="first-run" data-testid="crawls-empty">
      <h2>No crawls yet</h2>
      <p>
        Forage comes with a demo website on this machine: a statistics office of about 1,250 pages, with 610
        data tables and reports hidden among press releases, calendars and image galleries. Crawl it to watch the
        targets curve rise within seconds and see which page structures the crawler learns to trust.
      </p>
      <div className="first-run-actions">
        <DemoCrawlButton demoPort={demoPort} />
        <Link href="/crawls/new" className="button">
          Define your own crawl
        </Link>
      </div>
      <p className="hint">
        The demo crawl collects data files and documents from <code>http://127.0.0.1:{demoPort}/</code> with a
        budget of 2,000 requests and 100 ms between requests.
      </p>
    </div>
  );
}
