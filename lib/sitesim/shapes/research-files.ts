/**
 * Research repository: the bitstreams (files) of an item, its citation exports and the
 * RSS/Atom feeds. Bitstream links come in two spellings: DSpace's
 * `/bitstream/handle/<prefix>/<n>/<name>?sequence=<k>&isAllowed=y`, and for items
 * rendered by a customised theme the extension-less `/bitstream/id/<uuid>/`, whose
 * Content-Disposition carries the name. Embargoed files are linked with `isAllowed=n`
 * and answer 302 to /login or 403: they are not targets.
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32, Rng, scrambleId, unscrambleId } from "../random";
import type { FileRef } from "../types";
import { authorsOf, itemType, type RepoModel } from "./research-model";
import { surnameOf } from "./research-text";

export interface Bitstream {
  /** DSpace sequence id (1-based). */
  seq: number;
  /** File name as shown (ASCII, may hold spaces). */
  name: string;
  description: string;
  format: FormatName;
  href: string;
  access: "open" | "login" | "forbidden";
  /** Link to the thumbnail (JPEG), or null. */
  thumbHref: string | null;
  /** Sequence id of the thumbnail (0 without one). */
  thumbSeq: number;
  file: FileRef;
}

/** Files per item are at most this many; thumbnails take file ids above it. */
const MAX_FILES = 12;

export const EXPORT_FORMATS = ["ris", "bibtex", "endnote"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** `/bitstream/id/<uuid>/` token of file id `fid` (reversible through its first 8 hex digits). */
export function bitstreamUuid(seed: number, fid: number): string {
  const h = hash32(seed, 0xb5d, fid).toString(16).padStart(8, "0");
  const g = hash32(seed, 0xb5e, fid).toString(16).padStart(8, "0");
  return `${scrambleId(fid)}-${h.slice(0, 4)}-4${h.slice(5, 8)}-a${g.slice(0, 3)}-${g.slice(3, 8)}${h.slice(0, 7)}`;
}

/** Items whose theme links files as `/bitstream/id/<uuid>/`. */
export function usesIdLinks(m: RepoModel, i: number): boolean {
  return hash32(m.seed, 0x1d5, i) % 100 < 15;
}

interface Planned {
  format: FormatName;
  name: string;
  description: string;
  /** Chance that the file is under embargo. */
  embargo: number;
}

const DATA_FORMATS: readonly FormatName[] = ["csv", "csv", "xlsx", "json", "csv", "xml", "zip", "xlsx", "ods", "xls"];
const DATA_STEMS = ["measurements", "survey_responses", "model_output", "field_observations", "interview_codes", "time_series", "sample_metadata", "simulation_results", "station_data", "raw_counts"];

function plan(m: RepoModel, i: number, r: Rng): Planned[] {
  const type = itemType(m, i);
  const authors = authorsOf(m, i);
  const surname = authors.length ? surnameOf(m.authors[authors[0]!]!) : "Archive";
  const year = Math.floor(m.itemIssued[i]! / 10000);
  const handle = m.itemHandle[i]!;
  const out: Planned[] = [];
  const pdf = (name: string, description: string, embargo: number) => out.push({ format: "pdf", name, description, embargo });
  const roll = r.float();
  const extras = (p: number, choices: ReadonlyArray<readonly [string, FormatName, string]>) => {
    for (let k = 0, n = r.chance(p) ? 1 + r.int(2) : 0; k < n; k++) {
      const [name, format, description] = choices[(k + r.int(choices.length)) % choices.length]!;
      if (!out.some((o) => o.name === name)) out.push({ name, format, description, embargo: 0.05 });
    }
  };
  switch (type) {
    case "thesis": {
      const historic = year < 2000;
      if (!historic && roll < 0.04) break;
      pdf(historic ? `${surname}${year}.pdf` : r.pick([`${surname}_thesis_${year}.pdf`, "Thesis.pdf", "Final Thesis.pdf", `${surname}${year}.pdf`]), "Thesis", historic ? 0 : 0.1);
      if (!historic) extras(0.45, [["Appendices.pdf", "pdf", "Appendices"], ["Supplementary data.xlsx", "xlsx", "Supplementary data"], ["Data and code.zip", "zip", "Data and code"], ["Interview transcripts.docx", "docx", "Transcripts"], ["survey_data.csv", "csv", "Survey data"]]);
      break;
    }
    case "article":
    case "conference":
    case "book": {
      if (roll < (type === "article" ? 0.12 : type === "conference" ? 0.15 : 0.4)) break;
      const name =
        type === "book" ? `Chapter ${1 + r.int(12)}.pdf`
        : type === "conference" ? r.pick([`paper_${handle}.pdf`, "Full paper.pdf", `${surname}_${year}_proceedings.pdf`])
        : r.pick([authors.length > 1 ? `${surname}_et_al_${year}.pdf` : `${surname}_${year}.pdf`, "accepted_manuscript.pdf", "Published version.pdf"]);
      pdf(name, type === "article" ? r.pick(["Accepted manuscript", "Published version"]) : "Full text", type === "book" ? 0.2 : 0.06);
      if (type === "conference" && r.chance(0.3)) pdf("slides.pdf", "Presentation", 0);
      extras(type === "book" ? 0 : 0.35, [["Supplementary material.docx", "docx", "Supplementary material"], ["supplementary_data.xlsx", "xlsx", "Supplementary data"], ["Supplementary.pdf", "pdf", "Supplementary material"], ["source_data.csv", "csv", "Source data"], ["figures_data.zip", "zip", "Figure data"]]);
      break;
    }
    case "report": {
      pdf(r.chance(0.5) ? `WP_${year}_${String(1 + (handle % 40)).padStart(2, "0")}.pdf` : "Report.pdf", "Full text", 0.03);
      extras(0.45, [["Technical annex.docx", "docx", "Annex"], ["Tables.xlsx", "xlsx", "Data tables"], ["Executive summary.pdf", "pdf", "Summary"], ["indicators.csv", "csv", "Indicators"]]);
      break;
    }
    case "dataset": {
      if (r.chance(0.85)) out.push({ format: "txt", name: "README.txt", description: "Documentation", embargo: 0 });
      const used = new Set<string>();
      for (let k = 0, n = 2 + r.int(7); k < n; k++) {
        const format = r.pick(DATA_FORMATS);
        let stem = r.pick(DATA_STEMS);
        if (used.has(stem)) stem = `${stem}_${k + 1}`;
        used.add(stem);
        out.push({ format, name: `${stem}.${format}`, description: "Data", embargo: 0.06 });
      }
      if (r.chance(0.3)) out.push({ format: "zip", name: "all_files.zip", description: "All files", embargo: 0 });
      if (r.chance(0.2)) pdf("codebook.pdf", "Codebook", 0);
      break;
    }
    case "image": {
      for (let k = 0, n = 1 + r.int(3); k < n; k++) out.push({ format: "jpg", name: `photo_${handle}_${k + 1}.jpg`, description: "Image", embargo: 0 });
      // The archival master is kept for staff only.
      out.push({ format: "jpg", name: `master_${handle}.tif`, description: "Archival master", embargo: 1 });
      break;
    }
  }
  return out.slice(0, MAX_FILES);
}

/** The files of item `i` ("Files in this item"), in sequence order; empty for metadata-only records. */
export function bitstreams(m: RepoModel, i: number): Bitstream[] {
  const r = new Rng(hash32(m.seed, 0xb17, i));
  const planned = plan(m, i, r);
  const base = `/bitstream/handle/${m.prefix}/${m.itemHandle[i]}/`;
  const idLinks = usesIdLinks(m, i);
  let thumbs = 0;
  return planned.map((p, k) => {
    const fid = i * 2 * MAX_FILES + k;
    const fseed = hash32(m.seed, 0xf11, fid);
    const seq = k + 1;
    const closed = r.chance(p.embargo);
    const access = !closed ? "open" : r.chance(0.7) ? "login" : "forbidden";
    const href = idLinks ? `/bitstream/id/${bitstreamUuid(m.seed, fid)}/` : `${base}${encodeURIComponent(p.name)}?sequence=${seq}&isAllowed=${closed ? "n" : "y"}`;
    let thumbHref: string | null = null;
    let thumbSeq = 0;
    if (access === "open" && (p.format === "pdf" || p.format === "jpg")) {
      // DSpace numbers the license after the originals, then a text and a thumbnail per file.
      thumbSeq = planned.length + 2 + 2 * thumbs;
      thumbHref = idLinks ? `/bitstream/id/${bitstreamUuid(m.seed, fid + MAX_FILES)}/` : `${base}${encodeURIComponent(p.name)}.jpg?sequence=${thumbSeq}`;
      thumbs++;
    }
    const file: FileRef = { format: p.format, bytes: fileBytes(p.format, fseed), seed: fseed, ...(idLinks ? { filename: p.name } : {}) };
    return { seq, name: p.name, description: p.description, format: p.format, href, access, thumbHref, thumbSeq, file };
  });
}

/** The JPEG thumbnail behind a bitstream's `thumbHref`. */
export function thumbnailFile(m: RepoModel, b: Bitstream): FileRef {
  const fseed = hash32(m.seed, 0x7b, b.file.seed);
  return { format: "jpg", bytes: fileBytes("jpg", fseed) >> 2, seed: fseed };
}

/** Item and index of the file (or thumbnail) behind a `/bitstream/id/<uuid>/` token; null when none. */
export function bitstreamById(m: RepoModel, token: string): { item: number; k: number; thumb: boolean } | null {
  const fid = unscrambleId(token.slice(0, 8));
  const item = Math.floor(fid / (2 * MAX_FILES));
  if (!(item >= 0 && item < m.itemCount) || !usesIdLinks(m, item) || bitstreamUuid(m.seed, fid) !== token) return null;
  const k = fid % (2 * MAX_FILES);
  return { item, k: k % MAX_FILES, thumb: k >= MAX_FILES };
}

/** Citation export of item `i` ("Export citation"): a small file that is not a target. */
export function exportFile(m: RepoModel, i: number, format: ExportFormat): FileRef {
  const fseed = hash32(m.seed, 0xe4, i, EXPORT_FORMATS.indexOf(format));
  const ext = format === "bibtex" ? "bib" : format === "ris" ? "ris" : "enw";
  return { format, bytes: fileBytes(format, fseed), seed: fseed, filename: `item-${m.itemHandle[i]}.${ext}` };
}

/** RSS 2.0 or Atom 1.0 feed of a community, a collection or the whole site. */
export function feedFile(m: RepoModel, format: "rss" | "atom", key: number): FileRef {
  const fseed = hash32(m.seed, format === "rss" ? 0xf3 : 0xf4, key);
  return { format, bytes: fileBytes(format, fseed), seed: fseed };
}
