import Link from "next/link";

export default function CrawlNotFound() {
  return (
    <div className="not-found">
      <p className="not-found-code">404</p>
      <h1>Crawl not found</h1>
      <p>There is no crawl with this number. It may have been deleted, or the link is mistyped.</p>
      <p className="not-found-actions">
        <Link href="/" className="button button-primary">
          See all crawls
        </Link>
        <Link href="/crawls/new" className="button">
          Start a new crawl
        </Link>
      </p>
    </div>
  );
}
