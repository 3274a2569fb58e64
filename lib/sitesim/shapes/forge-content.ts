/**
 * What is in a repository and how it got there, per template: a data repository adds a
 * folder of tables per year (raw and processed, or one folder per year), fixes some
 * tables later (new revisions of the same path), converts old XLS files, and tags a
 * release per year; code repositories (Python and R packages, a JavaScript dashboard,
 * ETL scripts) grow module by module with tests, documentation and version bumps and
 * keep few data files (test fixtures, example data); documentation repositories hold
 * Markdown chapters, figures and slide decks. Feature branches fork off the default
 * branch and add one to three commits. `scale` (0–1] sets how much history there is.
 */
import type { FormatName } from "../formats";
import { Rng } from "../random";
import { ContentBuilder, finishContent, type ChangeOp, type GitContent } from "./forge-git";
import { COMMIT_VERBS, type RepoTemplate } from "./forge-text";

export interface BuiltContent {
  content: GitContent;
  branches: Array<{ name: string; head: number }>;
  tags: Array<{ name: string; commit: number }>;
}

export interface ContentSpec {
  template: RepoTemplate;
  /** Repository name (package and file names derive from it). */
  repo: string;
  stem: string;
  tables: readonly string[];
  scale: number;
  defaultBranch: string;
  /** Commit authors (user owner indices), most commits by the first. */
  authors: readonly number[];
  start: number;
  end: number;
}

const DATA_FORMATS: ReadonlyArray<readonly [FormatName, number]> = [
  ["csv", 5], ["xlsx", 3], ["ods", 0.7], ["xls", 0.7], ["json", 0.8], ["xml", 0.6], ["zip", 0.8], ["pdf", 0.5], ["txt", 0.4],
];
const BINARY: ReadonlySet<FormatName> = new Set<FormatName>(["xlsx", "xls", "ods", "zip", "pdf", "docx"]);
const MODULES = ["io", "weights", "tables", "metadata", "cli", "utils", "validate", "seasonal", "geo", "api", "plots", "sampling", "variance", "readers", "writers"];
const CHAPTERS = ["getting-started", "publishing", "review", "charts", "tables", "metadata", "confidentiality", "revisions", "glossary", "faq", "contributing", "sources"];
const BREAKDOWNS = ["_by_region", "_by_age_sex", "_by_municipality", "_by_sector"];
const REASONS = ["wrong totals", "missing rows", "encoding", "revised figures", "duplicate codes", "unit error"];

function weighted<T>(r: Rng, items: ReadonlyArray<readonly [T, number]>): T {
  let x = r.float() * items.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of items) {
    if (x < w) return v;
    x -= w;
  }
  return items[items.length - 1]![0];
}

function shuffled<T>(r: Rng, xs: readonly T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

type Steps = { tags: Array<{ name: string; step: number }>; branches: Array<{ name: string; steps: number[] }> };

function dataTemplate(b: ContentBuilder, r: Rng, spec: ContentSpec): Steps {
  const s = spec.scale;
  const years = 1 + Math.floor(s * (2 + r.int(7)));
  const y0 = 2023 - years + 1 - r.int(2);
  // Layout: raw/processed folders per year, a folder per year, or (young repositories) everything in data/.
  const layout = s >= 0.3 && r.chance(0.6) ? "split" : s >= 0.15 && r.chance(0.6) ? "yearly" : "flat";
  const split = layout === "split";
  const lfs = r.chance(0.4);
  // Tables: the subject's, then the same by breakdown; sensor-like data in monthly or quarterly files.
  const pool = [...shuffled(r, spec.tables), ...shuffled(r, spec.tables.flatMap((t) => BREAKDOWNS.map((x) => t + x)))];
  const tables = pool.slice(0, 2 + Math.floor((0.5 + s) * (1 + r.int(3))));
  const periods = s > 0.3 && r.chance(0.3) ? (r.chance(0.5) ? 12 : 4) : 1;
  const fmt = tables.map(() => weighted(r, DATA_FORMATS));
  // Some publishers put each table in two formats side by side.
  const twin: Array<FormatName | null> = tables.map((_, k) => (fmt[k] === "csv" && r.chance(0.35) ? "xlsx" : null));
  const readme = b.file("README.md", "md", "doc");
  const license = r.chance(0.4 + 0.6 * s) ? b.file("LICENSE.md", "md", "doc") : -1;
  const script = !r.chance(0.35 + 0.6 * s) ? -1 : r.chance(0.5) ? b.file("scripts/prepare.py", "py", "source") : b.file("scripts/prepare.R", "rscript", "source");
  const codebook = !r.chance(0.3 + 0.6 * s) ? -1 : r.chance(0.6) ? b.file("docs/codebook.pdf", "pdf", "data", lfs) : b.file("docs/codebook.md", "md", "doc");
  const pkg = r.chance(0.5) ? b.file("datapackage.json", "json", "data") : -1;
  const revs = new Map<number, number>();
  const yearFiles = (y: number): number[] => {
    const suffixes = periods === 1 ? [""] : Array.from({ length: periods }, (_, k) => (periods === 4 ? `_Q${k + 1}` : `_${String(k + 1).padStart(2, "0")}`));
    const out = tables.flatMap((t, k) => [fmt[k]!, ...(twin[k] ? [twin[k]] : [])].flatMap((f) => suffixes.map((x) => {
      const path = split ? `data/raw/${y}/${t}${x}.${f}` : layout === "yearly" ? `data/${y}/${spec.stem}_${t}_${y}${x}.${f}` : `data/${spec.stem}_${t}_${y}${x}.${f}`;
      return b.file(path, f, "data", lfs && BINARY.has(f));
    })));
    if (split) out.push(b.file(`data/processed/${spec.stem}_${y}.csv`, "csv", "data"));
    for (const f of out) revs.set(f, 1);
    return out;
  };
  const out: Steps = { tags: [], branches: [] };
  const first = [readme, license, script, codebook, pkg, ...yearFiles(y0)].filter((f) => f >= 0);
  let step = b.commit("Initial import", first.map((f) => [f, "A"]));
  const tagged = s >= 0.15 && r.chance(0.55);
  if (tagged) out.tags.push({ name: `v${y0}`, step });
  for (let y = y0 + 1; y < y0 + years; y++) {
    if (r.chance(0.5 * s + 0.1)) {
      const pool = [...revs.keys()].filter((f) => revs.get(f)! < 4 && b.files[f]!.format !== "pdf");
      if (pool.length > 0) {
        const f = r.pick(pool);
        revs.set(f, revs.get(f)! + 1);
        b.commit(`Fix ${b.files[f]!.name}: ${r.pick(REASONS)}`, [[f, "M"]]);
      }
    }
    const added = yearFiles(y);
    step = b.commit(`Add ${y} data`, [...added.map((f) => [f, "A"] as [number, ChangeOp]), [readme, "M"], ...(pkg >= 0 ? [[pkg, "M"] as [number, ChangeOp]] : [])]);
    if (tagged) out.tags.push({ name: `v${y}`, step });
    if (script >= 0 && r.chance(0.25 * s)) b.commit("Update prepare script", [[script, "M"]]);
  }
  const xls = [...revs.keys()].filter((f) => b.files[f]!.format === "xls");
  if (xls.length > 0 && r.chance(0.5)) {
    const f = xls[0]!;
    const path = b.files[f]!.path.replace(/\.xls$/, ".xlsx");
    const g = b.file(path, "xlsx", "data", lfs);
    b.commit("Convert XLS files to XLSX", [[f, "D"], [g, "A"]]);
  }
  if (codebook >= 0 && r.chance(0.3)) b.commit("Update codebook", [[codebook, "M"]]);
  if (r.chance(0.15 + 0.3 * s)) {
    const last = b.steps.length - 1;
    const y = y0 + years;
    const name = r.chance(0.6) ? `update-${y}` : "fix-encoding";
    const changes: Array<[number, ChangeOp]> = name === "fix-encoding"
      ? [[[...revs.keys()].find((f) => b.files[f]!.format === "csv") ?? readme, "M"]]
      : [[b.file(split ? `data/raw/${y}/${tables[0]}.csv` : layout === "yearly" ? `data/${y}/${spec.stem}_${tables[0]}_${y}.csv` : `data/${spec.stem}_${tables[0]}_${y}.csv`, "csv", "data"), "A"]];
    out.branches.push({ name, steps: [b.commit(name === "fix-encoding" ? "Re-encode CSV files as UTF-8" : `Add provisional ${y} data`, changes, 1, last)] });
  }
  return out;
}

function codeTemplate(b: ContentBuilder, r: Rng, spec: ContentSpec): Steps {
  const s = spec.scale;
  const t = spec.template;
  const pkg = spec.repo.replace(/-/g, "_");
  const mods = shuffled(r, MODULES).slice(0, 1 + Math.floor(s * (1 + r.int(6))));
  const base: number[] = [b.file("README.md", "md", "doc"), b.file("LICENSE.md", "md", "doc")];
  const later: number[] = [];
  const sources: number[] = [];
  const src = (path: string, f: FormatName) => {
    const i = b.file(path, f, "source");
    sources.push(i);
    return i;
  };
  let version = -1;
  let changelog = -1;
  if (t === "python") {
    version = b.file("pyproject.toml", "toml", "source");
    base.push(version, src(`src/${pkg}/__init__.py`, "py"));
    mods.forEach((m, k) => (k === 0 ? base : later).push(src(`src/${pkg}/${m}.py`, "py")));
    for (const m of mods) if (r.chance(0.7)) later.push(src(`tests/test_${m}.py`, "py"));
    later.push(b.file("docs/index.md", "md", "doc"), b.file(".gitea/workflows/ci.yml", "yaml", "source"));
    if (s > 0.4) later.push(b.file("docs/usage.md", "md", "doc"));
    if (r.chance(0.3)) later.push(b.file("examples/demo.ipynb", "ipynb", "source"));
    if (r.chance(0.35)) later.push(b.file("tests/data/sample.csv", "csv", "data"));
    if (r.chance(0.1)) later.push(b.file("examples/data/example.xlsx", "xlsx", "data"));
    changelog = b.file("CHANGELOG.md", "md", "doc");
  } else if (t === "r") {
    mods.forEach((m, k) => (k === 0 ? base : later).push(src(`R/${m}.R`, "rscript")));
    for (const m of mods) if (r.chance(0.7)) later.push(src(`tests/testthat/test-${m}.R`, "rscript"));
    later.push(b.file("vignettes/introduction.Rmd", "md", "doc"), b.file(".gitea/workflows/check.yml", "yaml", "source"));
    if (r.chance(0.45)) later.push(b.file("inst/extdata/example.csv", "csv", "data"));
    changelog = b.file("NEWS.md", "md", "doc");
  } else if (t === "js") {
    mods.forEach((m, k) => (k === 0 ? base : later).push(src(`src/${m}.js`, "js")));
    base.push(src("src/style.css", "css"), src("vite.config.js", "js"));
    later.push(b.file(".gitea/workflows/deploy.yml", "yaml", "source"));
    if (r.chance(0.5)) later.push(b.file("public/data/summary.json", "json", "data"));
    if (r.chance(0.25)) later.push(b.file("public/data/regions.csv", "csv", "data"));
    changelog = b.file("CHANGELOG.md", "md", "doc");
  } else {
    const lang = r.chance(0.6) ? "py" : "rscript";
    mods.forEach((m, k) => (k === 0 ? base : later).push(src(`scripts/${m}.${lang === "py" ? "py" : "R"}`, lang)));
    for (let k = 0, n = 1 + r.int(3); k < n; k++) later.push(src(`sql/${["schema", "views", "load", "indexes"][k]}.sql`, "sql"));
    base.push(b.file("config.yml", "yaml", "source"));
    if (r.chance(0.4)) later.push(b.file("data/lookup.csv", "csv", "data"));
  }
  const out: Steps = { tags: [], branches: [] };
  b.commit("Initial commit", base.map((f) => [f, "A"]));
  const total = 2 + Math.floor(s * (3 + r.int(22)));
  // Young projects have not written their tests, docs and examples yet.
  const pending = shuffled(r, later).filter(() => r.chance(0.3 + 0.7 * s));
  let minor = 0;
  const tagged = t !== "scripts" && r.chance(0.75);
  for (let k = 1; k < total || pending.length > 0; k++) {
    if (pending.length > 0 && (r.chance(0.5) || k >= total)) {
      const add = pending.splice(0, k >= total ? pending.length : 1 + (r.chance(0.3) ? 1 : 0));
      b.commit(`Add ${add.map((f) => b.files[f]!.name).join(" and ")}`, add.map((f) => [f, "A"]));
    } else if (tagged && changelog >= 0 && r.chance(0.18)) {
      minor++;
      const step = b.commit(`Release v0.${minor}.0`, [[changelog, minor === 1 ? "A" : "M"], ...(version >= 0 ? [[version, "M"] as [number, ChangeOp]] : [])]);
      out.tags.push({ name: `v0.${minor}.0`, step });
    } else {
      const f = r.pick(sources);
      const g = r.chance(0.3) ? r.pick(sources) : f;
      b.commit(`${r.pick(COMMIT_VERBS)} ${b.files[f]!.name}`, g === f ? [[f, "M"]] : [[f, "M"], [g, "M"]]);
    }
  }
  const nBranches = Math.floor(s * r.int(4) + (r.chance(0.1 + 0.4 * s) ? 1 : 0));
  const names = shuffled(r, [`feature/${mods[0]}-options`, "dev", `fix/${r.pick(mods)}-edge-cases`, "refactor-io", `feature/${r.pick(MODULES)}`]);
  for (let k = 0; k < nBranches; k++) {
    const baseStep = b.steps.length - 1 - (b.steps.filter((x) => x.branch === 0).length > 3 ? r.int(3) : 0);
    const base = b.steps[baseStep]!.branch === 0 ? baseStep : 0;
    const steps: number[] = [];
    for (let j = 0, n = 1 + r.int(3); j < n; j++) {
      const f = r.pick(sources);
      steps.push(b.commit(`${r.pick(COMMIT_VERBS)} ${b.files[f]!.name}`, [[f, "M"]], k + 1, base));
    }
    out.branches.push({ name: names[k]!, steps });
  }
  return out;
}

function docsTemplate(b: ContentBuilder, r: Rng, spec: ContentSpec): Steps {
  const s = spec.scale;
  const out: Steps = { tags: [], branches: [] };
  const slidesRepo = spec.repo === "training-materials" || spec.repo === "meetup-slides";
  b.commit("Initial commit", [[b.file("README.md", "md", "doc"), "A"], [b.file("mkdocs.yml", "yaml", "source"), "A"], [b.file("docs/index.md", "md", "doc"), "A"]]);
  const items: Array<[number, string]> = [];
  for (const c of shuffled(r, CHAPTERS).slice(0, 1 + Math.floor(s * (2 + r.int(8))))) items.push([b.file(`docs/${c}.md`, "md", "doc"), `Add chapter on ${c.replace(/-/g, " ")}`]);
  for (let k = 0, n = r.chance(0.5) ? 1 + r.int(3) : 0; k < n; k++) items.push([b.file(`docs/img/figure-${k + 1}.png`, "png", "image"), "Add figure"]);
  const decks = slidesRepo ? 1 + Math.floor(s * (1 + r.int(7))) : r.chance(0.3) ? 1 : 0;
  for (let k = 0; k < decks; k++) items.push([b.file(`slides/${2019 + Math.floor((k * 5) / Math.max(1, decks))}-${String(1 + r.int(12)).padStart(2, "0")}-session-${k + 1}.pdf`, "pdf", "data"), `Add slides of session ${k + 1}`]);
  if (spec.repo === "style-guide" || r.chance(0.15)) items.push([b.file("templates/table-template.xlsx", "xlsx", "data"), "Add the table template"]);
  if (spec.repo === "data-standards") for (const c of ["regions", "units", "status-flags", "sectors"].slice(0, 1 + r.int(4))) items.push([b.file(`codelists/${c}.csv`, "csv", "data"), `Add ${c} code list`]);
  for (const [f, msg] of items) {
    b.commit(msg, [[f, "A"]]);
    if (r.chance(0.3 * s) && b.files[f]!.format === "md") b.commit(`Proofread ${b.files[f]!.name}`, [[f, "M"]]);
  }
  if (r.chance(0.3)) out.tags.push({ name: `edition-${2022 + r.int(3)}`, step: b.steps.length - 1 });
  if (r.chance(0.25 * s)) {
    const f = items.length > 0 ? items[0]![0] : 0;
    out.branches.push({ name: "draft", steps: [b.commit("Work in progress", [[b.files[f]!.format === "md" ? f : 0, "M"]], 1, b.steps.length - 1)] });
  }
  return out;
}

/** Builds a repository's content; deterministic from `seed` and the spec. */
export function buildContent(seed: number, spec: ContentSpec): BuiltContent {
  const r = new Rng(seed);
  const b = new ContentBuilder(seed);
  const steps = spec.template === "data" ? dataTemplate(b, r, spec) : spec.template === "docs" ? docsTemplate(b, r, spec) : codeTemplate(b, r, spec);
  // Main commits spread over the repository's life; branch commits after their base.
  const mainSteps = b.steps.map((st, k) => (st.branch === 0 ? k : -1)).filter((k) => k >= 0);
  const span = Math.max(60, spec.end - spec.start);
  const marks = mainSteps.map(() => r.float()).sort((x, y) => x - y);
  marks[0] = 0;
  const times = new Array<number>(b.steps.length).fill(0);
  mainSteps.forEach((k, i) => (times[k] = spec.start + Math.floor(marks[i]! * span * 0.97) + i));
  b.steps.forEach((st, k) => {
    if (st.branch === 0) return;
    const prev = k > 0 && b.steps[k - 1]!.branch === st.branch ? times[k - 1]! : times[st.base]!;
    times[k] = prev + 1 + r.int(Math.max(1, Math.floor((spec.end - prev) / 4)));
  });
  const authors = b.steps.map(() => spec.authors[Math.min(spec.authors.length - 1, Math.floor(spec.authors.length * Math.pow(r.float(), 2)))]!);
  const { content, stepToCommit } = finishContent(b, times, authors);
  const branches = [{ name: spec.defaultBranch, head: content.mainCount - 1 }];
  for (const br of steps.branches) branches.push({ name: br.name, head: stepToCommit[br.steps[br.steps.length - 1]!]! });
  const tags = steps.tags.map((t) => ({ name: t.name, commit: stepToCommit[t.step]! }));
  return { content, branches, tags };
}
