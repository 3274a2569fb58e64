"use client";

import Link from "next/link";
import { useCrawlsQuery } from "@/components/hooks/use-crawls-query";
import type { CrawlListItem } from "@/lib/store/queries/list-crawls";
import { HarvestsSection } from "@/components/harvests/HarvestsSection";
import "@/components/harvests/harvests.css";
import { CrawlsTable } from "./CrawlsTable";
import { FirstRun } from "./FirstRun";

export function CrawlsPage({
  initialCrawls,
  loadError,
  demoPort,
}: {
  initialCrawls?: CrawlListItem[];
  loadError: string | null;
  demoPort: number;
}) {
  const query = useCrawlsQuery(initialCrawls);
  const error = query.error?.message ?? (query.data ? null : loadError);
  const crawls = query.data ?? [];
  return (
    <>
      <section className="intro" aria-labelledby="intro-title">
        <h1 id="intro-title">Collect a website&apos;s data files, not the whole website</h1>
        <p>
          Forage crawls a site to download its <strong>targets</strong> — statistics tables, spreadsheets, CSV, PDF
          reports — while spending as few requests as possible. It groups links by where they sit in the page
          (their <strong>tag path</strong>), learns which groups lead to pages full of data files, and follows
          those first. You watch how many targets each request buys, see which parts of the page structure the
          crawler trusts, and download everything as a ZIP with a manifest.
        </p>
      </section>
      <HarvestsSection />
      <section aria-labelledby="crawls-title">
        <div className="section-head">
          <h2 id="crawls-title">Crawls</h2>
          {crawls.length > 0 ? (
            <Link href="/crawls/new" className="button button-primary">
              New crawl
            </Link>
          ) : null}
        </div>
        {error ? (
          <p role="alert" className="error-box">
            {error}
          </p>
        ) : crawls.length === 0 ? (
          <FirstRun demoPort={demoPort} />
        ) : (
          <CrawlsTable crawls={crawls} />
        )}
      </section>
    </>
  );
}
