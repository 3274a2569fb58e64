import type { CrawlDetail } from "@/components/hooks/api-types";

/**
 * What the crawl recognised behind the site ("Recognised CKAN 2.10.4 from its generator tag —
 * listing files through its API") and how each of the application's listings went. Nothing when
 * the site showed no known application.
 */
export function ApplicationNotes({ crawl }: { crawl: CrawlDetail }) {
  const notes = crawl.applications?.notes ?? [];
  if (notes.length === 0) return null;
  return (
    <section id="application" className="panel application-notes" aria-labelledby="application-notes-title">
      <h2 id="application-notes-title">The site's application</h2>
      <ul>
        {notes.map((note, index) => (
          <li key={index} className={note.level === "warn" ? "note-warn" : undefined} data-kind={note.kind}>
            {note.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
