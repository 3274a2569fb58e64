/**
 * Frontier memory: can the engine hold a 1-million-URL frontier in ≤ 1 GiB RSS?
 *
 *   node --import tsx --expose-gc test/bench/frontier-memory.ts [--links 1000000] [--strategy sb|bfs|dfs|random|tp-off|focused]
 *        [--tag-paths 2000] [--groups 200] [--links-per-page 50] [--no-anchor-check] [--anchor-texts]
 *
 * Builds the engine's own frontier structures — the `LinkTable` (seen set, link objects,
 * interned tag paths) and the strategy from `createStrategy` (for sb: the tag-path grouper and
 * the sleeping bandit) — and files N synthetic links into them exactly as the engine's
 * `fileLink` does (markSeen → createLink → strategy.add). Links look like real ones: ≈ 80-char
 * URLs of one site (flat strings, as `new URL().href` gives), ≈ 2 000 distinct tag paths made
 * from ≈ 200 page-block templates, one referrer string per page of 50 links, and short anchor
 * texts where the engine keeps them (FOCUSED only; `--anchor-texts`: for every strategy).
 * Prints RSS and heap before/after, bytes per link, and time per insert (URL generation
 * excluded), then the time of 10 000 `next()` calls on the full frontier.
 *
 * A second check ("anchor retention") feeds 2 000 links extracted by `extractLinks` from
 * 400 synthetic 100 KB pages into a LinkTable and measures what the link objects keep alive
 * once the pages are dropped: a link should cost a few hundred bytes, not its page.
 */
import { performance } from "node:perf_hooks";
import { parseCrawlConfig, STRATEGIES, type Strategy } from "../../lib/crawl-config";
import { detachString, LinkTable } from "../../lib/crawler/engine/link-table";
import { createStrategy } from "../../lib/crawler/engine/strategies/create-strategy";
import { extractLinks } from "../../lib/crawler/links";
import { Prng } from "../../lib/crawler/prng";

interface Options {
  links: number;
  strategy: Strategy;
  tagPaths: number;
  groups: number;
  linksPerPage: number;
  anchorCheck: boolean;
  /** File anchor texts whatever the strategy (the engine keeps them for FOCUSED only). */
  anchorTexts: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { links: 1_000_000, strategy: "sb", tagPaths: 2000, groups: 200, linksPerPage: 50, anchorCheck: true, anchorTexts: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--links") options.links = Number(value());
    else if (arg === "--strategy") options.strategy = value() as Strategy;
    else if (arg === "--tag-paths") options.tagPaths = Number(value());
    else if (arg === "--groups") options.groups = Number(value());
    else if (arg === "--links-per-page") options.linksPerPage = Number(value());
    else if (arg === "--no-anchor-check") options.anchorCheck = false;
    else if (arg === "--anchor-texts") options.anchorTexts = true;
    else if (arg === "--help" || arg === "-h") {
      console.log("node --import tsx --expose-gc test/bench/frontier-memory.ts [--links N] [--strategy sb|bfs|…] [--tag-paths N] [--groups N] [--no-anchor-check] [--anchor-texts]");
      process.exit(0);
    } else throw new Error(`Unknown argument ${arg}`);
  }
  if (!STRATEGIES.includes(options.strategy)) throw new Error(`--strategy must be one of ${STRATEGIES.join(", ")}`);
  for (const key of ["links", "tagPaths", "groups", "linksPerPage"] as const) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new Error(`--${key} must be a positive integer`);
  }
  return options;
}

const gcFn = (globalThis as { gc?: () => void }).gc;
if (!gcFn) {
  console.error("Run with --expose-gc: node --import tsx --expose-gc test/bench/frontier-memory.ts");
  process.exit(2);
}
const gc = gcFn;

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}

function memory(): Memory {
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
}

const MiB = 1024 * 1024;
const mib = (bytes: number) => (bytes / MiB).toFixed(1);

/** A reusable latin1 buffer: strings decoded from it are flat and fresh, like `new URL().href`. */
const scratch = Buffer.alloc(4096);
function flat(text: string): string {
  if (text.length > scratch.length) return Buffer.from(text, "latin1").toString("latin1");
  const length = scratch.write(text, 0, "latin1");
  return scratch.toString("latin1", 0, length);
}

/** xorshift32: cheap deterministic choices for the synthetic links. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const PAGE_TYPES = ["home", "theme", "publication", "dataset", "news", "article", "list", "search", "agenda", "about", "release", "topic"];
const SECTIONS = ["publications", "statistics", "datasets", "news", "releases", "themes", "regions", "methods", "reports", "tables"];
const WORDS = ["annual", "labour", "market", "population", "census", "prices", "trade", "energy", "health", "housing", "wages", "budget"];

/**
 * `groups` page-block templates, `tagPaths / groups` variants each. A template carries block
 * classes of its own (so templates fall into different groups); variants differ in the last
 * steps only (item modifiers, as CMS lists emit), close enough to share their template's group.
 */
function makeTagPaths(count: number, groups: number): string[] {
  const paths: string[] = [];
  const variants = Math.max(1, Math.round(count / groups));
  for (let g = 0; paths.length < count; g++) {
    const type = PAGE_TYPES[g % PAGE_TYPES.length]!;
    const block = `${WORDS[g % WORDS.length]}-${g}`;
    for (let v = 0; v < variants && paths.length < count; v++) {
      paths.push(
        flat(
          `/html/body.page-${type}/div.dialog-off-canvas-main-canvas/div.layout-container/main#main-content/` +
            `div.region region-content region-${block}/section.block block-${block}/div.view view-${block}/` +
            `div.view-content/ul.list list--${block}/li.list__item list__item--${v % 2 ? "odd" : "even"} list__item--${v}/` +
            `article.node node--teaser/h3.node__title/a.link link--${v}`,
        ),
      );
    }
  }
  return paths;
}

const ORIGIN = "https://www.statistics-office.example.org";

function makeUrl(i: number, pick: (n: number) => number): string {
  const section = SECTIONS[pick(SECTIONS.length)]!;
  const word = WORDS[pick(WORDS.length)]!;
  const year = 1990 + pick(35);
  // ≈ 80 characters: https://www.statistics-office.example.org/en/releases/2011/housing-000123456-q3.html
  return flat(`${ORIGIN}/en/${section}/${year}/${word}-${String(i).padStart(9, "0")}-q${1 + pick(4)}.html`);
}

function makeAnchor(i: number, pick: (n: number) => number): string {
  // Mostly short labels, sometimes a headline: one fresh string per link, as the engine keeps.
  return pick(4) === 0 ? flat(`${WORDS[pick(WORDS.length)]} ${WORDS[pick(WORDS.length)]} statistics, edition ${i % 1000}`) : flat(`Download ${i % 100}`);
}

interface FrontierResult {
  before: Memory;
  after: Memory;
  insertMs: number;
  generateMs: number;
  nextUs: number;
  /** Process CPU (user + system) per pull: what a pull costs, unlike wall time, on a machine shared with other work. */
  nextCpuUs: number;
  groups: number;
  frontier: number;
  distinctTagPaths: number;
}

function measureFrontier(options: Options): FrontierResult {
  const tagPaths = makeTagPaths(options.tagPaths, options.groups);
  const config = parseCrawlConfig({ rootUrl: `${ORIGIN}/`, strategy: options.strategy, seed: 1 });
  const pick = rng(12345);
  const before = memory();

  const prng = Prng.fromSeed(config.seed);
  const links = new LinkTable();
  const strategy = createStrategy(config, prng, links);
  let referrer = `${ORIGIN}/`;
  let insertMs = 0;
  let generateMs = 0;
  let depth = 1;
  const keepAnchorTexts = options.anchorTexts || options.strategy === "focused";
  for (let i = 0; i < options.links; i++) {
    const t0 = performance.now();
    const url = makeUrl(i, pick);
    // Drawn either way, so that the URLs and tag paths do not depend on keeping anchor texts.
    const anchor = makeAnchor(i, pick);
    const anchorText = keepAnchorTexts ? anchor : "";
    // Tag paths are skewed, as on real sites: a few list blocks hold most links.
    const tagPath = tagPaths[pick(3) === 0 ? pick(tagPaths.length) : pick(Math.max(1, tagPaths.length >> 3))]!;
    const t1 = performance.now();
    if (links.markSeen(url)) {
      const link = links.createLink({ url, tagPath, anchorText, depth, referrer, groupId: null });
      strategy.add(link);
    }
    const t2 = performance.now();
    generateMs += t1 - t0;
    insertMs += t2 - t1;
    // The next links come from another page: its URL is one of the links filed earlier.
    if (i % options.linksPerPage === options.linksPerPage - 1) {
      referrer = url;
      depth = 1 + (i % 7);
    }
  }
  const after = memory();

  // Pulls as the engine makes them: next(), feedback, release. 2 000 warm-up pulls first
  // (the first ones after building a large heap pay for JIT and a major GC), then 10 000 timed.
  let t = options.links;
  const pull = (): boolean => {
    const link = strategy.next(t);
    if (!link) return false;
    strategy.feedback(link, { reward: t % 5 === 0 ? 1 : 0, wasHtml: true });
    links.release(link.id);
    t += 1;
    return true;
  };
  for (let i = 0; i < 2000 && pull(); i++);
  const pulls = Math.min(10_000, strategy.size());
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < pulls && pull(); i++);
  const cpu = process.cpuUsage(cpu0);
  const nextUs = ((performance.now() - t0) * 1000) / Math.max(1, pulls);
  const nextCpuUs = (cpu.user + cpu.system) / Math.max(1, pulls);
  const pulled = t - options.links;

  return {
    before,
    after,
    insertMs,
    generateMs,
    nextUs,
    nextCpuUs,
    groups: strategy.groupCount(),
    frontier: strategy.size() + pulled,
    distinctTagPaths: tagPaths.length,
  };
}

/** What 2 000 frontier links keep alive once their 400 pages (≈ 100 KB each) are gone. */
function measureAnchorRetention(): { links: number; pageBytes: number; retainedPerLink: number } {
  const table = new LinkTable();
  const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(1800); // ≈ 100 KB
  const pages = 400;
  const before = memory();
  let pageBytes = 0;
  for (let p = 0; p < pages; p++) {
    const items = Array.from(
      { length: 5 },
      (_, i) => `<li class="item"><a class="link" href="/en/publications/${p}/report-${i}.html">Annual report ${i} of the statistics office, page ${p}</a></li>`,
    ).join("");
    const html = flat(`<html><body><main><p>${filler}${p}</p><ul class="list">${items}</ul></main></body></html>`);
    pageBytes += html.length;
    for (const link of extractLinks(html, `${ORIGIN}/en/page/${p}`)) {
      if (!table.markSeen(link.url)) continue;
      // As the engine's fileLink does for FOCUSED (the only strategy keeping anchor texts).
      table.createLink({ url: link.url, tagPath: link.tagPath, anchorText: detachString(link.anchorText), depth: 1, referrer: null, groupId: null });
    }
  }
  const after = memory();
  const links = table.seenCount;
  return { links, pageBytes, retainedPerLink: (after.heapUsed + after.external - before.heapUsed - before.external) / links };
}

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows.map(([key, value]) => `  ${key.padEnd(width)}  ${value}`).join("\n");
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  const anchors = options.anchorTexts || options.strategy === "focused" ? "anchor texts kept" : "no anchor texts, as the engine files them";
  console.log(
    `frontier memory: ${options.links.toLocaleString("en")} links, strategy ${options.strategy}, ` +
      `${options.tagPaths} tag paths over ${options.groups} templates, ${anchors} (node ${process.version})`,
  );
  const r = measureFrontier(options);
  const rssDelta = r.after.rss - r.before.rss;
  const heapDelta = r.after.heapUsed - r.before.heapUsed;
  const externalDelta = r.after.external - r.before.external;
  const projected = options.links === 1_000_000 ? r.after.rss : (rssDelta / options.links) * 1_000_000 + r.before.rss;
  console.log(
    table([
      ["", "before        after         delta"],
      ["RSS (MiB)", `${mib(r.before.rss).padEnd(13)} ${mib(r.after.rss).padEnd(13)} ${mib(rssDelta)}`],
      ["heap used (MiB)", `${mib(r.before.heapUsed).padEnd(13)} ${mib(r.after.heapUsed).padEnd(13)} ${mib(heapDelta)}`],
      ["external (MiB)", `${mib(r.before.external).padEnd(13)} ${mib(r.after.external).padEnd(13)} ${mib(externalDelta)}`],
      ["links in frontier", r.frontier.toLocaleString("en")],
      ["groups (actions)", String(r.groups)],
      ["bytes/link (RSS)", (rssDelta / options.links).toFixed(0)],
      ["bytes/link (heap)", (heapDelta / options.links).toFixed(0)],
      ["insert (µs/link)", ((r.insertMs * 1000) / options.links).toFixed(2) + `  (total ${(r.insertMs / 1000).toFixed(2)} s; URL generation ${(r.generateMs / 1000).toFixed(2)} s excluded)`],
      ["next()+feedback (µs)", r.nextUs.toFixed(2) + "  (wall; mean of 10 000 pulls on the full frontier, after 2 000 warm-up pulls)"],
      ["next()+feedback CPU (µs)", r.nextCpuUs.toFixed(2) + "  (process CPU, user + system, of the same pulls)"],
      ["RSS at 1 M links (MiB)", `${mib(projected)}${options.links === 1_000_000 ? "" : "  (projected linearly)"}`],
      ["≤ 1 GiB RSS at 1 M links", projected <= 1024 * MiB ? "yes" : "NO"],
    ]),
  );
  if (options.anchorCheck) {
    const a = measureAnchorRetention();
    console.log(
      `anchor retention: ${a.links} links extracted by extractLinks from ${(a.pageBytes / MiB).toFixed(1)} MiB of pages, ` +
        `pages dropped: ${a.retainedPerLink.toFixed(0)} bytes retained per link` +
        (a.retainedPerLink > 4096 ? "  ← the links keep their pages alive (anchorText is a slice of the page HTML)" : ""),
    );
  }
}

main();
