/**
 * Documentation site: the narrative part of the model (getting started, user guide,
 * tutorials, how-to guides, the example gallery, the dataset catalogue, development
 * pages) and the files these pages offer for download. Sections and pages appear in
 * later versions, a few are renamed (Read the Docs redirects the old names) and one
 * user guide page is dropped in the development version.
 */
import { hash32, Rng } from "../random";
import { slugify } from "../text";
import type { AddDoc } from "./docs-build-api";
import { addDatasets, type AddDownload } from "./docs-build-datasets";
import { AUTOSUMMARY_ORD, ORD_COUNT, type Dataset, type Example } from "./docs-model";
import { exampleStem, GALLERY_GROUPS, GUIDE_TOPICS, HOWTO_TOPICS, humanize, TUTORIAL_TOPICS, type Project } from "./docs-text";

export const SECTION_KEYS = ["getting_started", "user_guide", "tutorials", "how_to", "auto_examples", "datasets", "reference", "whatsnew", "development"] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

const SECTIONS: Readonly<Record<SectionKey, { title: string; since: number }>> = {
  getting_started: { title: "Getting started", since: 0 },
  user_guide: { title: "User Guide", since: 0 },
  tutorials: { title: "Tutorials", since: 0 },
  how_to: { title: "How-to guides", since: AUTOSUMMARY_ORD },
  auto_examples: { title: "Examples", since: AUTOSUMMARY_ORD },
  datasets: { title: "Example datasets", since: AUTOSUMMARY_ORD },
  reference: { title: "API reference", since: 0 },
  whatsnew: { title: "Release notes", since: 0 },
  development: { title: "Development", since: 0 },
};

const DEV_PAGES: ReadonlyArray<readonly [string, string]> = [
  ["contributing", "Contributing"], ["contributing_docs", "Contributing to the documentation"], ["testing", "Running the test suite"],
  ["code_style", "Code style and conventions"], ["release_process", "Release process"], ["governance", "Project governance"],
  ["roadmap", "Roadmap"], ["internals", "Internals"],
];

export interface Narrative {
  /** Section documents; -1 for a section the project does not have. */
  sections: Record<SectionKey, number>;
  /** Narrative documents of the development version. */
  pageCount: number;
  /** Sections of the French translation. */
  translated: number[];
  guidePages: number[];
  datasets: Dataset[];
  examples: Example[];
  datasetBundle: number;
  galleryZips: readonly [number, number];
  notebooks: Map<number, number>;
}

/** Figures (`_images/<stem>_<k>.png`) of a user guide page: 0–2. */
export function guideFigures(seed: number, doc: number): number {
  return hash32(seed, 0xf16, doc) % 3;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(x)));

export function addNarrative(add: AddDoc, addDownload: AddDownload, rng: Rng, project: Project, pages: number): Narrative {
  const root = Math.sqrt(pages);
  let count = 1;
  const page = (parent: number, kind: "page" | "tutorial" | "howto" | "example" | "dataset" | "section", name: string, title: string, since = 0, until = ORD_COUNT, ref = -1, oldName: string | null = null, renamedAt = 0) => {
    if (until === ORD_COUNT) count++;
    return add(parent, { kind, name, oldName, renamedAt, since, until, title, ref });
  };
  const sections = {} as Record<SectionKey, number>;
  for (const key of SECTION_KEYS) {
    // Small projects have no how-to guides.
    sections[key] = key === "how_to" && pages < 100 ? -1 : page(0, "section", `${key}/index`, SECTIONS[key].title, SECTIONS[key].since);
  }

  const gs = sections.getting_started;
  page(gs, "page", "getting_started/install", "Installation");
  page(gs, "page", "getting_started/overview", "Package overview");
  page(gs, "page", "getting_started/quickstart", `10 minutes to ${project.title}`, 0, ORD_COUNT, -1, "getting_started/10min", 3);
  if (pages > 300) {
    const cmp = page(gs, "page", "getting_started/comparison/index", "Comparison with other tools");
    for (const [k, tool] of ["R", "SQL", "Stata", "spreadsheets", "SAS"].entries()) page(cmp, "page", `getting_started/comparison/comparison_with_${tool.toLowerCase()}`, `Comparison with ${tool}`, k < 3 ? 0 : k - 1);
  }
  page(gs, "page", "getting_started/offline", "Offline documentation", 1);

  const guidePages: number[] = [];
  const guideCount = clamp(1 + root / 3, 3, GUIDE_TOPICS.length);
  for (let i = 0; i < guideCount; i++) {
    const [stem, title] = GUIDE_TOPICS[i]!;
    const since = i < 4 || rng.chance(0.55) ? 0 : 1 + rng.int(ORD_COUNT - 1);
    guidePages.push(stem === "io" ? page(sections.user_guide, "page", "user_guide/io", title, since, ORD_COUNT, -1, "user_guide/input_output", 2) : page(sections.user_guide, "page", `user_guide/${stem}`, title, since));
    if (i === guideCount - 2) guidePages.push(page(sections.user_guide, "page", "user_guide/legacy_plotting", "Plotting with the legacy interface", 0, ORD_COUNT - 1));
  }

  const notebooks = new Map<number, number>();
  const tutorialCount = clamp(root / 4.5, 2, TUTORIAL_TOPICS.length);
  for (let i = 0; i < tutorialCount; i++) {
    const title = TUTORIAL_TOPICS[i]!;
    const stem = `${String(i + 1).padStart(2, "0")}_${slugify(title).replace(/-/g, "_")}`;
    const since = i < 2 ? 0 : Math.max(0, Math.min(ORD_COUNT - 1, Math.floor((i / tutorialCount) * 4.5) - (rng.chance(0.4) ? 1 : 0)));
    const doc = page(sections.tutorials, "tutorial", `tutorials/${stem}`, title, since);
    notebooks.set(doc, addDownload(`${stem}.ipynb`, "ipynb", since));
  }

  const howtoCount = sections.how_to < 0 ? 0 : clamp(root / 5, 1, HOWTO_TOPICS.length);
  for (let i = 0; i < howtoCount; i++) {
    const title = HOWTO_TOPICS[i]!;
    page(sections.how_to, "howto", `how_to/${slugify(title).replace(/-/g, "_")}`, title, AUTOSUMMARY_ORD + (i < howtoCount / 2 ? 0 : rng.int(3)));
  }

  const examples: Example[] = [];
  const exampleCount = clamp(root * 0.6, 2, 200);
  const groups = clamp(Math.ceil(exampleCount / 6), 2, GALLERY_GROUPS.length);
  const stems = new Set<string>();
  const byGroup: number[][] = Array.from({ length: groups }, () => []);
  for (let i = 0; i < exampleCount; i++) byGroup[i < groups ? i : rng.int(groups)]!.push(i);
  byGroup.forEach((members, g) => {
    for (let j = 0; j < members.length; j++) {
      let stem = exampleStem(rng);
      for (let k = 2; stems.has(stem); k++) stem = `${stem.replace(/_[0-9]+$/, "")}_${k}`;
      stems.add(stem);
      const since = AUTOSUMMARY_ORD + (rng.chance(0.6) ? 0 : rng.int(3));
      const folder = GALLERY_GROUPS[g]![0];
      const doc = page(sections.auto_examples, "example", `auto_examples/${folder}/${stem}`, humanize(stem.slice(5)), since, ORD_COUNT, examples.length);
      examples.push({ stem, group: g, py: addDownload(`${stem}.py`, "py", since), ipynb: addDownload(`${stem}.ipynb`, "ipynb", since), figures: 1 + rng.int(3), uses: [], doc });
    }
  });
  const galleryZips = [addDownload("auto_examples_python.zip", "zip", AUTOSUMMARY_ORD), addDownload("auto_examples_jupyter.zip", "zip", AUTOSUMMARY_ORD)] as const;

  const catalogue = addDatasets(add, addDownload, rng, sections.datasets, clamp(pages / 30, 2, 4000));
  count += catalogue.pages;
  const datasets = catalogue.datasets;
  const datasetBundle = addDownload("example_datasets.zip", "zip", AUTOSUMMARY_ORD);

  const devCount = clamp(1 + root / 12, 1, DEV_PAGES.length);
  for (let i = 0; i < devCount; i++) {
    const [stem, title] = DEV_PAGES[i]!;
    if (stem === "contributing_docs") page(sections.development, "page", "development/contributing_docs", title, 0, ORD_COUNT, -1, "development/contributing_documentation", 4);
    else page(sections.development, "page", `development/${stem}`, title, i < 3 ? 0 : 1, stem === "internals" ? ORD_COUNT - 1 : ORD_COUNT);
  }

  return {
    sections, pageCount: count, translated: [sections.getting_started, sections.user_guide, sections.tutorials],
    guidePages, datasets, examples, datasetBundle, galleryZips, notebooks,
  };
}
