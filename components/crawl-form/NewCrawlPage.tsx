"use client";

import Link from "next/link";
import { useCrawlQuery } from "@/components/hooks/use-crawl-query";
import { stripScheme } from "@/components/ui/format";
import { CrawlForm } from "./CrawlForm";
import { defaultFormValues, formValuesFromConfig } from "./form-state";

/** "New crawl", empty or pre-filled from an existing crawl (`?from=<id>`, "Clone settings"). */
export function NewCrawlPage({ fromId }: { fromId: number | null }) {
  const source = useCrawlQuery(fromId, { poll: false });
  let body: React.ReactNode;
  if (fromId === null) {
    body = <CrawlForm initialValues={defaultFormValues()} />;
  } else if (source.isPending) {
    body = (
      <p className="loading" role="status">
        Loading the settings of crawl #{fromId}…
      </p>
    );
  } else if (source.error || !source.data) {
    body = (
      <>
        <p className="notice notice-warn" role="alert">
          Could not copy the settings of crawl #{fromId} ({source.error?.message ?? "not found"}); the form starts from the defaults.
        </p>
        <CrawlForm initialValues={defaultFormValues()} />
      </>
    );
  } else {
    const crawl = source.data;
    body = (
      <>
        <p className="notice" role="status" data-testid="clone-notice">
          Settings copied from{" "}
          <Link href={`/crawls/${crawl.id}`}>
            crawl #{crawl.id} ({crawl.name ?? stripScheme(crawl.rootUrl)})
          </Link>
          , seed included: the same seed on the same site repeats the same choices. Clear the seed in Advanced for a
          new random run.
        </p>
        <CrawlForm key={crawl.id} initialValues={formValuesFromConfig(crawl.config)} hidden={{ politeness: crawl.config.politeness, archive: crawl.config.archive }} />
      </>
    );
  }
  return (
    <div className="form-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/">Crawls</Link> <span aria-hidden="true">/</span> <span aria-current="page">New crawl</span>
      </nav>
      <h1>New crawl</h1>
      <p className="lead">
        Paste a root URL, choose which files to collect and how many requests they are worth. Everything else has a
        polite default.
      </p>
      {body}
    </div>
  );
}
