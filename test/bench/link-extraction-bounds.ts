/**
 * Link extraction on hostile markup: how long the page-limit cases of
 * test/unit/crawler-links-bounds.test.ts take (the unit test checks their counts, not their time).
 *
 *   npm run bench:link-bounds -- [--runs 5]
 *
 * Prints the median time per page of each case and exits non-zero when one is over its bound:
 * a bound an order of magnitude over a loaded machine's time, and well under what the unbounded
 * algorithm (a whole-stack scan per end tag, uncut searches) takes.
 */
import { performance } from "node:perf_hooks";
import { PAGE_LIMITS } from "../../lib/crawler/defaults";
import { extractPageLinks } from "../../lib/crawler/links";
import { deepPage } from "../../lib/sitesim/hostile/hostile-pages";

const PAGE = "https://www.example.org/stats/index.html";

interface Case {
  name: string;
  html: string;
  boundMs: number;
}

const cases: Case[] = [
  { name: "300 000 nested elements and 300 000 stray end tags", html: deepPage(300_000, "/files/deep.csv"), boundMs: 3_000 },
  {
    name: `200 000 stray end tags under 502 open elements (searches cut after ${PAGE_LIMITS.maxStackScanSteps} steps)`,
    html: `<body><b><div>${"<span>".repeat(500)}${"<x></x></b>".repeat(200_000)}<a href="/x">x</a>`,
    boundMs: 400,
  },
];

function runsArgument(argv: string[]): number {
  const at = argv.indexOf("--runs");
  if (at < 0) return 5;
  const runs = Number(argv[at + 1]);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error(`--runs takes a whole number of runs, at least 1 (not ${JSON.stringify(argv[at + 1] ?? "")})`);
    process.exit(2);
  }
  return runs;
}

const runs = runsArgument(process.argv.slice(2));
let over = 0;
for (const { name, html, boundMs } of cases) {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    extractPageLinks(html, PAGE);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const verdict = median < boundMs ? "ok" : "OVER";
  if (median >= boundMs) over++;
  console.log(`${verdict.padEnd(4)} ${median.toFixed(0).padStart(6)} ms (bound ${boundMs} ms, median of ${runs})  ${name}`);
}
process.exit(over === 0 ? 0 : 1);
