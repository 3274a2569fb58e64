"use client";

import { EarlyStopChart } from "@/components/crawl-charts/EarlyStopChart";
import { useEarlyStopQuery } from "@/components/hooks/use-early-stop-query";
import { formatParam } from "@/components/ui/format";
import { formatInteger } from "@/lib/format";
import { PanelError, PanelLoading } from "./QueryState";

/** "Will it stop by itself?": slope per window, its moving average, τ, and the patience counter. */
export function EarlyStopPanel({ crawlId, live, stopReason }: { crawlId: number; live: boolean; stopReason: string | null }) {
  const query = useEarlyStopQuery(crawlId, live);
  const state = query.data;
  const last = state?.windows.at(-1);
  const patience = last?.patience ?? 0;
  return (
    <section className="panel" id="early-stopping" aria-labelledby="early-stop-title">
      <div className="panel-head">
        <div>
          <h2 id="early-stop-title">Early stopping</h2>
          {state ? (
            <p className="panel-hint">
              Every {formatInteger(state.windowRequests)} requests the crawler measures its slope, the new targets per
              request, and smooths it (β = {formatParam(state.beta)}). When the moving average stays below τ ={" "}
              {formatParam(state.threshold)} for {state.patienceWindows} windows in a row, the site has given what it
              has: the crawl stops.
            </p>
          ) : null}
        </div>
      </div>
      {query.error ? <PanelError label="early stopping" error={query.error} /> : null}
      {query.isPending ? <PanelLoading label="early stopping" /> : null}
      {state && !state.enabled ? (
        <p className="empty">Early stopping is off for this crawl: it ends when the budget is spent or the site is exhausted.</p>
      ) : null}
      {state && state.enabled ? (
        <div className="early-stop-layout">
          <EarlyStopChart windows={state.windows} threshold={state.threshold} patienceWindows={state.patienceWindows} windowRequests={state.windowRequests} />
          <div className="patience" data-testid="patience">
            <p className="patience-count">
              <strong>
                {patience} / {state.patienceWindows}
              </strong>{" "}
              windows below threshold
            </p>
            <div className="patience-boxes" aria-hidden="true">
              {Array.from({ length: state.patienceWindows }, (_, index) => (
                <span key={index} className={index < patience ? "filled" : undefined} />
              ))}
            </div>
            <p className="panel-hint">
              {stopReason === "early-stop"
                ? "The crawl stopped early: the last windows found too few new targets."
                : last
                  ? last.ema !== null && last.ema < state.threshold
                    ? live
                      ? `Below τ: ${state.patienceWindows - patience} more low windows and the crawl stops.`
                      : `The crawl ended below τ, ${state.patienceWindows - patience} low windows short of stopping early.`
                    : live
                      ? "Above τ: the crawl is still finding targets at a good pace."
                      : "Above τ when it ended: the crawl was still finding targets at a good pace."
                  : live
                    ? "No complete window yet."
                    : "The crawl ended before its first complete window."}
            </p>
          </div>
        </div>
      ) : null}
    </section>
  );
}
