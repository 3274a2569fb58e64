"use client";

import Link from "next/link";
import { useState } from "react";
import { fetchFullComparison, useCompareQuery, type CrawlComparison } from "@/components/hooks/use-compare-queries";
import { hostOf } from "@/components/ui/format";
import { isActiveStatus } from "@/lib/crawl-status";
import { formatInteger } from "@/lib/format";
import { saveBlob } from "./chart-export";
import { CompareTable } from "./CompareTable";
import { CompareTargetsChart } from "./CompareTargetsChart";
import { CompareVolumeChart } from "./CompareVolumeChart";
import { curvesCsv } from "./curves-csv";
import "./compare.css";

/** The Compare view: `/compare?ids=12,13,14`, crawls of one site on one chart, a table, exports. */
export function ComparePage({ ids }: { ids: string }) {
  const query = useCompareQuery(ids);
  return (
    <div className="compare-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/">Crawls</Link> <span aria-hidden="true">/</span> <span aria-current="page">Compare</span>
      </nav>
      {query.isPending ? (
        <>
          <h1>Compare crawls</h1>
          <p className="panel-loading" role="status">
            Loading crawls {ids}…
          </p>
        </>
      ) : query.error ? (
        <>
          <h1>Compare crawls</h1>
          <p role="alert" className="error-box" data-testid="compare-error">
            {query.error.message}
          </p>
          <p className="hint">
            Pick crawls of one site in the <Link href="/">crawl list</Link>, or replay a finished crawl from its cockpit with other strategies.
          </p>
        </>
      ) : (
        <Comparison ids={ids} comparison={query.data} />
      )}
    </div>
  );
}

function Comparison({ ids, comparison }: { ids: string; comparison: CrawlComparison }) {
  const running = comparison.crawls.filter((crawl) => isActiveStatus(crawl.status)).length;
  const bfs = comparison.crawls.find((crawl) => crawl.id === comparison.bfsCrawlId);
  const fileName = `forage-compare-${comparison.crawls.map((crawl) => crawl.id).join("-")}`;
  return (
    <>
      <div className="compare-title-row">
        <div>
          <h1>Compare crawls of {hostOf(comparison.rootUrl)}</h1>
          <p className="lead compare-lead">
            {comparison.crawls.length} crawls of{" "}
            <a href={comparison.rootUrl} target="_blank" rel="noreferrer noopener">
              {comparison.rootUrl}
            </a>
            . The best run found {formatInteger(comparison.best.targets)} targets; the table counts the requests each crawl needed to reach 50 % and 90 % of them.
            {running > 0 ? ` ${running} still running: the curves grow live.` : ""}
          </p>
        </div>
        <CsvButton ids={ids} fileName={fileName} />
      </div>
      <section className="panel" aria-label="Targets vs requests">
        <CompareTargetsChart comparison={comparison} fileName={fileName} />
      </section>
      <section className="compare-section" aria-labelledby="compare-table-title">
        <h2 id="compare-table-title" className="compare-h2">
          Efficiency
        </h2>
        <CompareTable comparison={comparison} />
        <p className="hint">
          Ratio to BFS: requests to 90 % over those of the breadth-first run{comparison.bfsCrawlId !== null ? ` (#${comparison.bfsCrawlId})` : ""}; below 1 saves requests.
          {comparison.bfsCrawlId === null ? " No breadth-first run is compared: replay one from a cockpit to get the ratio." : ""}
          {bfs && bfs.requestsTo90 === null ? ` The breadth-first run did not reach 90 % of the targets within its ${formatInteger(bfs.requests)} requests, so no ratio can be given.` : ""}
        </p>
      </section>
      <section className="panel" aria-label="Target volume vs other volume">
        <CompareVolumeChart comparison={comparison} fileName={fileName} />
      </section>
    </>
  );
}

/** Downloads every point of the curves (not the chart's downsampled copy) as CSV. */
function CsvButton({ ids, fileName }: { ids: string; fileName: string }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const download = async () => {
    setState({ busy: true, error: null });
    try {
      const full = await fetchFullComparison(ids);
      saveBlob(new Blob([curvesCsv(full)], { type: "text/csv;charset=utf-8" }), `${fileName}.csv`);
      setState({ busy: false, error: null });
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <div className="compare-actions">
      <button type="button" className="button" onClick={() => void download()} disabled={state.busy}>
        {state.busy ? "Preparing CSV…" : "Download curves (CSV)"}
      </button>
      {state.error ? (
        <p role="alert" className="field-error">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
