import type { CrawlConfig } from "@/lib/crawl-config";
import { STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";
import { formatBytes, formatDuration, formatInteger } from "@/lib/format";

/** The crawl's settings at a glance (the full list is one "Clone settings" away). */
export function SettingsSummary({ config, renderedPages = 0 }: { config: CrawlConfig; renderedPages?: number }) {
  const { budget, politeness, blocklist } = config;
  const limits = [
    `${formatInteger(budget.requests)} requests`,
    budget.bytes !== null ? formatBytes(budget.bytes) : null,
    budget.seconds !== null ? formatDuration(budget.seconds * 1000) : null,
  ].filter(Boolean);
  return (
    <dl className="settings-list" data-testid="settings-summary">
      <div>
        <dt>Strategy</dt>
        <dd>
          {STRATEGY_LABELS[config.strategy as Strategy] ?? config.strategy}
          {config.strategy === "sb" || config.strategy === "sb-oracle" ? ` · ${linkChoice(config)}` : ""}
        </dd>
      </div>
      <div>
        <dt>Site's application</dt>
        <dd>{applicationChoice(config)}</dd>
      </div>
      <div>
        <dt>Browser rendering</dt>
        <dd data-testid="settings-render">{renderChoice(config, renderedPages)}</dd>
      </div>
      <div>
        <dt>Budget</dt>
        <dd>{limits.join(" · ")}</dd>
      </div>
      <div>
        <dt>Politeness</dt>
        <dd>
          {formatInteger(politeness.delayMs)} ms between requests · robots.txt {politeness.obeyRobots ? "obeyed" : "ignored"}
          {config.allowPrivateNetwork ? " · private network allowed" : ""}
        </dd>
      </div>
      <div>
        <dt>Target MIME types</dt>
        <dd>
          <details>
            <summary>{config.targetMimeTypes.length} types</summary>
            <p className="mono-list">{config.targetMimeTypes.join(", ")}</p>
          </details>
        </dd>
      </div>
      <div>
        <dt>Blocklists</dt>
        <dd>
          {blocklist.urlPatterns.length} URL {blocklist.urlPatterns.length === 1 ? "pattern" : "patterns"} · {blocklist.extensions.length} extensions · MIME {blocklist.mimeTypes.join(" ") || "none"}
        </dd>
      </div>
      <div>
        <dt>Seed</dt>
        <dd>{config.seed}</dd>
      </div>
    </dl>
  );
}

/** Whether the crawl uses the site's own catalog or API (recipes), and which application it assumes. */
function applicationChoice(config: CrawlConfig): string {
  const applications = config.applications ?? { use: true, recipe: "auto" };
  if (!applications.use) return "not used: through the pages only";
  const which = applications.recipe === "auto" ? "recognised automatically" : `assumed: ${applications.recipe}`;
  return config.strategy === "sb" || config.strategy === "sb-oracle" ? `its catalog or API used when recognised (${which})` : "not used by this strategy";
}

/** How an SB crawl picks the link inside the chosen group, how exploration follows the site's reward and spares barren groups, whether groups split by URL shape, and whether waiting links change group. */
function linkChoice(config: CrawlConfig): string {
  const { linkRankSamples, rewardScaledExploration, barrenDamping, urlOutlookWeight, splitActionsByUrlShape, regroupRediscoveredLinks, longTermCreditDiscount, longTermCreditDepth } = config.params;
  const choice = linkRankSamples > 1 ? `best of ${formatInteger(linkRankSamples)} links by URL` : "uniformly random link, as in the paper";
  const groups = urlOutlookWeight > 0 ? `groups weighed by their links' URLs (× ${urlOutlookWeight})` : "groups by the bandit alone, as in the paper";
  const scaled = rewardScaledExploration ? "scaled to the site's reward" : "unscaled, as in the paper";
  const barren = barrenDamping ? ", less for groups whose pages bring nothing new" : "";
  const split = splitActionsByUrlShape ? " · a group split by URL shape when its links pay differently" : "";
  const regroup = regroupRediscoveredLinks ? " · waiting links move to a better group when listed again" : "";
  const credit = longTermCreditDiscount > 0 ? ` · a page's targets also credited to the ${formatInteger(longTermCreditDepth)} groups that led to it (γ ${longTermCreditDiscount})` : "";
  return `${choice} · ${groups} · exploration ${scaled}${barren}${split}${regroup}${credit}`;
}

/** "When a page needs it · 12 pages rendered" (the events say why each kind of page was). */
function renderChoice(config: CrawlConfig, renderedPages: number): string {
  const mode = config.render ?? "off";
  const label = mode === "auto" ? "when a page needs it" : mode === "always" ? "every page" : "never: HTML only";
  if (mode === "off" && renderedPages === 0) return label;
  return `${label} · ${formatInteger(renderedPages)} ${renderedPages === 1 ? "page" : "pages"} rendered`;
}
