"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { compareHref, useCrawlReplaysQuery, useCreateReplaysMutation, type ReplayFamilyMember } from "@/components/hooks/use-compare-queries";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { STRATEGIES, STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";
import { formatInteger } from "@/lib/format";
import { STRATEGY_HELP } from "./strategy-help";
import "@/components/compare/compare.css";

const shortName = (strategy: string) => (STRATEGY_LABELS[strategy as Strategy] ?? strategy).split(" (")[0];

/**
 * "Replay with…": a finished crawl (or a replay's source) re-run offline with other strategies,
 * as queued crawls the worker runs from the stored responses; the family is listed with a link
 * to compare it on one chart.
 */
export function ReplayPanel({ crawl }: { crawl: CrawlDetail }) {
  const family = useCrawlReplaysQuery(crawl.id);
  const data = family.data;
  const source = data?.source ?? null;
  const isReplay = data ? data.sourceCrawlId !== crawl.id : false;
  // A replay's "Replay with…" replays its source, which is finished (it was replayed once).
  const canReplay = isReplay ? source !== null && source.status === "finished" : crawl.status === "finished";
  const members: ReplayFamilyMember[] = data ? [...(source ? [source] : []), ...data.replays] : [];
  const comparable = [data?.sourceCrawlId ?? crawl.id, ...(data?.replays ?? []).filter((r) => r.status !== "cancelled").map((r) => r.id)];
  if (!data || (!canReplay && data.replays.length === 0 && !isReplay)) return null;
  return (
    <section id="replays" className="panel replay-panel" aria-labelledby="replays-title">
      <div className="panel-head">
        <div>
          <h2 id="replays-title">Replay with…</h2>
          <p className="panel-hint">
            {isReplay ? (
              <>
                This crawl is a replay of <Link href={`/crawls/${data.sourceCrawlId}`}>crawl #{data.sourceCrawlId}</Link>, run offline from its stored responses.
                New replays start from that crawl too.
              </>
            ) : (
              <>Run this crawl again offline, from its stored responses, with other strategies: no request reaches the site, and the curves show what each strategy would have cost.</>
            )}
          </p>
        </div>
        {comparable.length > 1 ? (
          <Link className="button" href={compareHref(comparable)} data-testid="compare-family">
            Compare {comparable.length} crawls
          </Link>
        ) : null}
      </div>
      {canReplay ? <ReplayForm crawlId={crawl.id} defaultSeed={source?.seed ?? crawl.seed} /> : null}
      {members.length > 0 ? (
        <ul className="replay-family" aria-label="Replays of this crawl">
          {members.map((member) => (
            <li key={member.id} data-testid={`replay-${member.id}`}>
              {member.id === crawl.id ? <strong>#{member.id} (this crawl)</strong> : <Link href={`/crawls/${member.id}`}>#{member.id}</Link>}
              <span>
                {shortName(member.strategy)}, seed {member.seed}
                {member.id === data.sourceCrawlId ? " · source" : ""}
              </span>
              <StatusBadge status={member.status} stopReason={member.stopReason} stopDetail={null} />
              <span className="crawl-meta">
                {formatInteger(member.targets)} targets · {formatInteger(member.requests)} requests
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ReplayForm({ crawlId, defaultSeed }: { crawlId: number; defaultSeed: number }) {
  const mutation = useCreateReplaysMutation(crawlId);
  const [strategies, setStrategies] = useState<Strategy[]>([]);
  const [seed, setSeed] = useState(String(defaultSeed));
  const [error, setError] = useState<string | null>(null);
  const toggle = (strategy: Strategy, on: boolean) => setStrategies((list) => (on ? [...list, strategy] : list.filter((s) => s !== strategy)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (strategies.length === 0) return setError("Pick at least one strategy.");
    const seedText = seed.trim();
    if (!/^\d{1,10}$/.test(seedText) || Number(seedText) > 2 ** 31 - 1) return setError("The seed must be a whole number from 0 to 2147483647.");
    // In the order of the list, whatever the order of the clicks.
    const ordered = STRATEGIES.filter((s) => strategies.includes(s));
    mutation.mutate({ strategies: ordered, seed: Number(seedText) }, { onSuccess: () => setStrategies([]) });
  };
  const message = error ?? (mutation.error ? mutation.error.message : null);
  return (
    <form className="replay-form" onSubmit={submit} noValidate>
      <fieldset className="replay-strategies">
        <legend>Strategies</legend>
        {STRATEGIES.map((strategy) => (
          <div key={strategy} className="replay-strategy">
            <label>
              <input type="checkbox" name="strategy" value={strategy} checked={strategies.includes(strategy)} onChange={(event) => toggle(strategy, event.target.checked)} aria-describedby={`replay-help-${strategy}`} />
              {shortName(strategy)}
            </label>
            <p className="field-hint" id={`replay-help-${strategy}`}>
              {STRATEGY_HELP[strategy]}
            </p>
          </div>
        ))}
      </fieldset>
      <label className="replay-seed">
        Seed
        <input type="text" inputMode="numeric" name="seed" value={seed} onChange={(event) => setSeed(event.target.value)} aria-describedby="replay-seed-hint" />
        <span id="replay-seed-hint" className="field-hint">
          the same seed replays the same choices
        </span>
      </label>
      <button type="submit" className="button button-primary" disabled={mutation.isPending}>
        {mutation.isPending ? "Queuing…" : "Replay"}
      </button>
      {message ? (
        <p role="alert" className="field-error" style={{ flexBasis: "100%" }}>
          {message}
        </p>
      ) : null}
      {mutation.isSuccess && !message ? (
        <p role="status" className="notice notice-success notice-small" style={{ flexBasis: "100%" }}>
          Queued {mutation.data.replays.map((r) => `#${r.id} (${shortName(r.strategy)})`).join(", ")}: the worker runs them now.
        </p>
      ) : null}
    </form>
  );
}
