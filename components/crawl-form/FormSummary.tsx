"use client";

import Link from "next/link";
import { STRATEGY_LABELS } from "@/lib/crawl-config";
import { formatDuration, formatInteger } from "@/lib/format";
import { hostOf } from "@/components/ui/format";
import type { CrawlFormValues } from "./form-state";

/** The crawl in five lines, next to the one button that starts it (sticky on wide screens). */
export function FormSummary({ values, busy }: { values: CrawlFormValues; busy: boolean }) {
  const requests = Number(values.budgetRequests);
  const delay = Number(values.delayMs);
  const validBudget = Number.isInteger(requests) && requests > 0;
  const duration = validBudget && Number.isFinite(delay) && delay >= 0 ? `about ${formatDuration(requests * delay)}` : "–";
  const host = values.rootUrl.trim() ? hostOf(values.rootUrl.trim()) : "–";
  const limits = [values.byteLimit.trim() ? `${values.byteLimit} ${values.byteUnit}` : null, values.timeLimit.trim() ? `${values.timeLimit} ${values.timeUnit}` : null].filter(Boolean);
  return (
    <aside className="form-aside" aria-labelledby="summary-title">
      <h2 id="summary-title">Summary</h2>
      <dl className="summary-list">
        <div>
          <dt>Site</dt>
          <dd>{host}</dd>
        </div>
        <div>
          <dt>Targets</dt>
          <dd>
            {values.targetMimeTypes.length} MIME {values.targetMimeTypes.length === 1 ? "type" : "types"}
          </dd>
        </div>
        <div>
          <dt>Budget</dt>
          <dd>
            {validBudget ? `${formatInteger(requests)} requests` : "–"}
            {limits.length > 0 ? `, at most ${limits.join(" or ")}` : ""}
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{duration}</dd>
        </div>
        <div>
          <dt>Strategy</dt>
          <dd>{STRATEGY_LABELS[values.strategy].split(" (")[0]}</dd>
        </div>
      </dl>
      <div className="form-actions">
        <button type="submit" className="button button-primary button-large" disabled={busy}>
          {busy ? "Starting…" : "Start crawl"}
        </button>
        <Link href="/" className="button button-ghost">
          Cancel
        </Link>
      </div>
    </aside>
  );
}
