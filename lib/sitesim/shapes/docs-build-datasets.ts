/**
 * Documentation site: the example dataset catalogue. Each dataset has a page and one to
 * five files (CSV always; Excel, JSON, a zipped shapefile, a codebook), first shipped in
 * some version: tutorials of older versions already link the files, the catalogue pages
 * exist from 2.0 on. A catalogue of more than 40 datasets is grouped by theme
 * (`datasets/<theme>/index`), as a sidebar of hundreds of entries would not be usable.
 */
import type { FormatName } from "../formats";
import type { Rng } from "../random";
import type { AddDoc } from "./docs-build-api";
import { AUTOSUMMARY_ORD, ORD_COUNT, type Dataset } from "./docs-model";
import { datasetStem, humanize } from "./docs-text";

export type AddDownload = (name: string, format: FormatName, since: number) => number;

/** Adds `count` datasets under the catalogue section; returns them and the number of pages added. */
export function addDatasets(add: AddDoc, addDownload: AddDownload, rng: Rng, section: number, count: number): { datasets: Dataset[]; pages: number } {
  const drawn: Array<{ topic: string; stem: string; since: number; files: number[] }> = [];
  const stems = new Set<string>();
  for (let i = 0; i < count; i++) {
    const [topic, first] = datasetStem(rng);
    let stem = first;
    for (let k = 2; stems.has(stem); k++) stem = `${first}_v${k}`;
    stems.add(stem);
    const x = rng.float();
    const since = x < 0.4 ? 0 : x < 0.55 ? 1 : x < 0.75 ? 2 : x < 0.9 ? 3 : 4;
    const files = [addDownload(`${stem}.csv`, "csv", since)];
    if (rng.chance(0.45)) files.push(addDownload(`${stem}.xlsx`, "xlsx", since));
    if (rng.chance(0.3)) files.push(addDownload(`${stem}.json`, "json", since));
    if (rng.chance(0.15)) files.push(addDownload(`${stem}_shapes.zip`, "zip", since));
    if (rng.chance(0.2)) files.push(addDownload(`${stem}_codebook.txt`, "txt", since));
    drawn.push({ topic, stem, since, files });
  }
  const datasets: Dataset[] = [];
  const addOne = (parent: number, dir: string, d: (typeof drawn)[number]) => {
    const doc = add(parent, { kind: "dataset", name: `${dir}${d.stem}`, oldName: null, renamedAt: 0, since: Math.max(AUTOSUMMARY_ORD, d.since), until: ORD_COUNT, title: humanize(d.stem), ref: datasets.length });
    datasets.push({ stem: d.stem, title: humanize(d.stem), files: d.files, doc });
  };
  if (count <= 40) {
    for (const d of drawn) addOne(section, "datasets/", d);
    return { datasets, pages: count };
  }
  const topics = [...new Set(drawn.map((d) => d.topic))].sort();
  for (const topic of topics) {
    const members = drawn.filter((d) => d.topic === topic);
    const since = Math.max(AUTOSUMMARY_ORD, Math.min(...members.map((d) => d.since)));
    const theme = add(section, { kind: "page", name: `datasets/${topic}/index`, oldName: null, renamedAt: 0, since, until: ORD_COUNT, title: humanize(topic), ref: -1 });
    for (const d of members) addOne(theme, `datasets/${topic}/`, d);
  }
  return { datasets, pages: count + topics.length };
}
