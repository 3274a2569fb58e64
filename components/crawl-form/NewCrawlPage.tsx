"use client";

import Link from "next/link";
import { useState } from "react";
import { useCrawlQuery } from "@/components/hooks/use-crawl-query";
import { formatInteger } from "@/lib/format";
import { stripScheme } from "@/components/ui/format";
import { CrawlForm } from "./CrawlForm";
import { defaultFormValues, formValuesFromConfig } from "./form-state";
import { crawlDisplayName } from "@/components/ui/crawl-name";

/**
 * "New crawl", empty or pre-filled from an existing crawl (`?from=<id>`, "Clone settings"), or a
 * re-crawl of a finished one (`?from=<id>&recrawl=1`): same settings, `after` it, so the new run
 * starts from what that crawl learned and reports what changed.
 */
export function NewCrawlPage({ fromId, recrawl = false }: { fromId: number | null; recrawl?: boolean }) {
  const source = useCrawlQuery(fromId, { poll: false });
  const [checkKnownFiles, setCheckKnownFiles] = useState(false);
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
    const isRecrawl = recrawl && crawl.status === "finished";
    body = isRecrawl ? (
      <>
        <div className="notice" role="status" data-testid="recrawl-notice">
          <p>
            Re-crawl after{" "}
            <Link href={`/crawls/${crawl.id}`}>
              crawl #{crawl.id} ({crawl.name ? crawlDisplayName(crawl.name) : stripScheme(crawl.rootUrl)})
            </Link>
            : it starts from what that crawl learned, does not download the {formatInteger(crawl.targets)} files it
            already has, and reports what is new, changed or gone. That crawl cost {formatInteger(crawl.requests)} requests:
            a re-crawl usually needs far fewer.
          </p>
          <label className="field-checkbox">
            <input type="checkbox" checked={checkKnownFiles} onChange={(event) => setCheckKnownFiles(event.target.checked)} />
            <span>Check known files for changes (one conditional request per known file)</span>
          </label>
        </div>
        <CrawlForm
          key={`recrawl-${crawl.id}`}
          initialValues={{ ...formValuesFromConfig(crawl.config), seed: "" }}
          hidden={{ politeness: crawl.config.politeness, archive: crawl.config.archive, after: crawl.id, checkKnownFiles }}
        />
      </>
    ) : (
      <>
        <p className="notice" role="status" data-testid="clone-notice">
          Settings copied from{" "}
          <Link href={`/crawls/${crawl.id}`}>
            crawl #{crawl.id} ({crawl.name ? crawlDisplayName(crawl.name) : stripScheme(crawl.rootUrl)})
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
