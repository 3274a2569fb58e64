"use client";

import Link from "next/link";
import { LegendSample } from "@/components/charts/curve-marks";
import type { CrawlComparison } from "@/components/hooks/use-compare-queries";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { formatDecimal } from "@/components/ui/format";
import { formatHarvestRate, formatInteger } from "@/lib/format";
import { curveStyle, strategyName } from "./curve-styles";

const requestsCell = (value: number | null) => (value === null ? "not reached" : formatInteger(value));

/**
 * The comparison in numbers: per crawl, requests to reach 50 % and 90 % of the targets the best
 * run found, that number over the breadth-first run's, harvest rate and how the crawl ended.
 */
export function CompareTable({ comparison }: { comparison: CrawlComparison }) {
  const { best } = comparison;
  return (
    <div className="table-scroll">
      <table className="data-table responsive-table compare-table" aria-label="Comparison">
        <caption className="visually-hidden">
          Requests each crawl needed to reach 50 % ({formatInteger(best.targets50)}) and 90 % ({formatInteger(best.targets90)}) of the{" "}
          {formatInteger(best.targets)} targets found by the best run
        </caption>
        <thead>
          <tr>
            <th scope="col">Crawl</th>
            <th scope="col">Stop reason</th>
            <th scope="col" className="num">Requests</th>
            <th scope="col" className="num">Targets</th>
            <th scope="col" className="num" title={`${formatInteger(best.targets50)} targets`}>
              Requests to 50 %
            </th>
            <th scope="col" className="num" title={`${formatInteger(best.targets90)} targets`}>
              Requests to 90 %
            </th>
            <th scope="col" className="num">Ratio to BFS</th>
            <th scope="col" className="num">Harvest rate</th>
          </tr>
        </thead>
        <tbody>
          {comparison.crawls.map((crawl, index) => {
            const style = curveStyle(index);
            return (
              <tr key={crawl.id} data-testid={`compare-row-${crawl.id}`}>
                <td className="cell-wide cell-nolabel" data-label="Crawl">
                  <span className="compare-crawl">
                    <LegendSample color={style.color} dash={style.dash} marker={style.marker} />
                    <span>
                      <Link href={`/crawls/${crawl.id}`} className="crawl-name">
                        #{crawl.id} {strategyName(crawl.strategy)}
                      </Link>
                      <span className="crawl-meta">
                        seed {crawl.seed}
                        {crawl.replayOfCrawlId !== null ? ` · replay of #${crawl.replayOfCrawlId}` : ""}
                        {crawl.id === best.crawlId ? " · best run" : ""}
                      </span>
                    </span>
                  </span>
                </td>
                <td className="cell-wide cell-nolabel" data-label="Stop reason">
                  <StatusBadge status={crawl.status} stopReason={crawl.stopReason} stopDetail={null} />
                </td>
                <td className="num" data-label="Requests" data-testid="compare-requests">{formatInteger(crawl.requests)}</td>
                <td className="num" data-label="Targets" data-testid="compare-targets">{formatInteger(crawl.targets)}</td>
                <td className="num" data-label="Requests to 50 %" data-testid="compare-to50">{requestsCell(crawl.requestsTo50)}</td>
                <td className="num" data-label="Requests to 90 %" data-testid="compare-to90">{requestsCell(crawl.requestsTo90)}</td>
                <td className="num" data-label="Ratio to BFS" data-testid="compare-ratio">
                  {crawl.ratioToBfs === null ? "–" : `${formatDecimal(crawl.ratioToBfs)}×`}
                </td>
                <td className="num" data-label="Harvest rate">{formatHarvestRate(crawl.targets, crawl.requests)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
