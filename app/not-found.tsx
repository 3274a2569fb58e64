import Link from "next/link";

export default function NotFound() {
  return (
    <div className="not-found">
      <p className="not-found-code">404</p>
      <h1>Page not found</h1>
      <p>Nothing lives at this address. Your crawls are all on the crawls page.</p>
      <p className="not-found-actions">
        <Link href="/" className="button button-primary">
          See all crawls
        </Link>
      </p>
    </div>
  );
}
