"use client";

import Link from "next/link";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { isActiveStatus } from "@/lib/crawl-status";
import { LiveSettingsForm } from "./LiveSettingsForm";
import { SettingsSummary } from "./SettingsSummary";

export function SettingsPanel({ crawl }: { crawl: CrawlDetail }) {
  const active = isActiveStatus(crawl.status);
  return (
    <section className="panel" id="settings" aria-labelledby="settings-title">
      <div className="panel-head">
        <h2 id="settings-title">Settings</h2>
        <Link href={`/crawls/new?from=${crawl.id}`} className="button button-small">
          Clone settings
        </Link>
      </div>
      <div className={active ? "settings-layout" : undefined}>
        <SettingsSummary config={crawl.config} renderedPages={crawl.counters.renderedPages} />
        {active ? <LiveSettingsForm key={crawl.id} crawl={crawl} /> : null}
      </div>
    </section>
  );
}
