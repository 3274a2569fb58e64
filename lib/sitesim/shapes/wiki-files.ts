/**
 * Wiki uploads: the file behind each version of an upload (current and archived
 * versions are different files, so different bodies and sizes), thumbnails, labels
 * ("PDF", "Excel") and the `/images/…` routing: current files, `archive/` versions
 * (`<timestamp>!<name>`), `thumb/` renderings. Deleted and lost files answer 404.
 * Old versions are data files in their own right (earlier releases), so they are targets.
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32 } from "../random";
import type { FileRef } from "../types";
import { mwTimestamp, type WikiModel } from "./wiki-model";
import { hashDir, safeDecodePath } from "./wiki-urls";

const LABELS: Partial<Record<FormatName, string>> = {
  csv: "CSV", xlsx: "Excel (XLSX)", xls: "Excel 97 (XLS)", ods: "OpenDocument spreadsheet", pdf: "PDF", zip: "ZIP archive",
  docx: "Word (DOCX)", doc: "Word 97 (DOC)", odt: "OpenDocument text", txt: "Plain text", png: "PNG image", jpg: "JPEG image",
};

export function fileLabel(format: FormatName): string {
  return LABELS[format] ?? format.toUpperCase();
}

/** Version `v` (0 = first upload) of file `f`. */
export function fileVersionRef(m: WikiModel, f: number, v: number): FileRef {
  const file = m.files[f]!;
  const seed = hash32(file.seed, v);
  return { format: file.format, bytes: fileBytes(file.format, seed), seed };
}

/** Size of the current version. */
export function fileBytesOf(m: WikiModel, f: number): number {
  return fileVersionRef(m, f, m.files[f]!.uploads.length - 1).bytes;
}

/** Image dimensions of an upload (PDFs: the first page at 150 dpi). */
export function fileDimensions(m: WikiModel, f: number): [number, number] {
  const file = m.files[f]!;
  if (file.format === "pdf") return [1240, 1754];
  const w = 640 + (hash32(file.seed, 0xd1) % 2400);
  return [w, Math.round((w * 3) / 4)];
}

/** Widths of "Other resolutions" links on an image's description page. */
export function otherResolutions(m: WikiModel, f: number): number[] {
  const [w] = fileDimensions(m, f);
  return [320, 640, 1024, 1280, 2560].filter((x) => x < w);
}

function thumbRef(m: WikiModel, f: number, width: number): FileRef {
  const seed = hash32(m.files[f]!.seed, 0x7b, width);
  const format = m.files[f]!.format === "jpg" || m.files[f]!.format === "pdf" ? "jpg" : "png";
  return { format, bytes: Math.max(1000, Math.round(fileBytes(format, seed) * Math.min(1, width / 1200))), seed };
}

/**
 * What `/images/<rest>` serves: the current file, an archived version, or a thumbnail;
 * null (404) for anything else, deleted and lost files included.
 */
export function routeImages(m: WikiModel, parts: readonly string[]): FileRef | null {
  const decoded = parts.map((x) => safeDecodePath(x));
  if (decoded.some((x) => x === null)) return null;
  const seg = decoded as string[];
  const fileAt = (dir1: string, dir2: string, name: string): number => {
    const f = m.fileByName.get(name);
    if (f === undefined || hashDir(name) !== `${dir1}/${dir2}`) return -1;
    return m.files[f]!.status === "ok" ? f : -1;
  };
  if (seg.length === 3) {
    const f = fileAt(seg[0]!, seg[1]!, seg[2]!);
    return f < 0 ? null : fileVersionRef(m, f, m.files[f]!.uploads.length - 1);
  }
  if (seg.length === 4 && seg[0] === "archive") {
    const bang = seg[3]!.indexOf("!");
    const f = bang === 14 ? fileAt(seg[1]!, seg[2]!, seg[3]!.slice(15)) : -1;
    if (f < 0) return null;
    const uploads = m.files[f]!.uploads;
    const v = uploads.findIndex((t, k) => k < uploads.length - 1 && mwTimestamp(t) === seg[3]!.slice(0, 14));
    return v < 0 ? null : fileVersionRef(m, f, v);
  }
  if (seg.length === 5 && seg[0] === "thumb") {
    const f = fileAt(seg[1]!, seg[2]!, seg[3]!);
    if (f < 0) return null;
    const file = m.files[f]!;
    const match = file.format === "pdf" ? /^page1-([1-9][0-9]{1,3})px-(.+)\.jpg$/.exec(seg[4]!) : /^([1-9][0-9]{1,3})px-(.+)$/.exec(seg[4]!);
    if (!match || match[2] !== file.name || (!file.image && file.format !== "pdf")) return null;
    const width = Number(match[1]);
    return width < fileDimensions(m, f)[0] ? thumbRef(m, f, width) : null;
  }
  return null;
}
