/**
 * File bodies. Each body is assembled from a shared, lazily built ~0.5 MB block per
 * kind (CSV rows, JSON records, random bytes…) plus a small per-file header, so a
 * 300 KB file costs one memcpy rather than 300 KB of string building: the server must
 * sustain > 1 000 requests/s while the crawler downloads every target.
 */
import zlib from "node:zlib";
import { Rng } from "./random";
import { FORMATS, type FormatName } from "./formats";
import type { FileRef } from "./types";

export { FORMATS, SIM_TARGET_MIME_TYPES, type FormatName } from "./formats";

const BLOCK_BYTES = 480 * 1024;
/** Bodies start at a seed-dependent offset within this window of their block. */
const OFFSET_WINDOW = 64 * 1024;

const blocks = new Map<string, Buffer>();

function lineBlock(name: string, line: (rng: Rng, i: number) => string): Buffer {
  let b = blocks.get(name);
  if (!b) {
    const rng = new Rng(0xb10c + name.length * 7919 + name.charCodeAt(0));
    const parts: string[] = [];
    let len = 0;
    for (let i = 1; len < BLOCK_BYTES; i++) {
      const l = line(rng, i);
      parts.push(l);
      len += l.length;
    }
    b = Buffer.from(parts.join(""), "latin1");
    blocks.set(name, b);
  }
  return b;
}

function randomBlock(): Buffer {
  let b = blocks.get("bin");
  if (!b) {
    b = Buffer.allocUnsafe(BLOCK_BYTES);
    const rng = new Rng(0xfeed);
    for (let i = 0; i < BLOCK_BYTES; i += 4) b.writeUInt32LE(rng.u32(), i);
    blocks.set("bin", b);
  }
  return b;
}

const REGIONS = ["FR-ARA", "FR-BFC", "FR-BRE", "FR-CVL", "FR-COR", "FR-GES", "FR-HDF", "FR-IDF", "FR-NOR", "FR-NAQ", "FR-OCC", "FR-PDL", "FR-PAC"];
const UNITS = ["EUR", "persons", "percent", "tonnes", "index"];

const csvRows = () =>
  lineBlock("csv", (r, i) => `${i};${r.pick(REGIONS)};${2000 + r.int(25)};${(r.int(10_000_000) / 100).toFixed(2)};${r.pick(UNITS)};${r.chance(0.1) ? "p" : "f"}\n`);
const jsonRows = () =>
  lineBlock("json", (r, i) => `,{"id":${i},"region":"${r.pick(REGIONS)}","year":${2000 + r.int(25)},"value":${(r.int(10_000_000) / 100).toFixed(2)}}\n`);
const xmlRows = () =>
  lineBlock("xml", (r, i) => `  <record id="${i}" region="${r.pick(REGIONS)}" year="${2000 + r.int(25)}" value="${(r.int(10_000_000) / 100).toFixed(2)}"/>\n`);
const pyRows = () =>
  lineBlock("py", (r, i) => `series_${i} = tb.Series([${r.int(1000)}, ${r.int(1000)}, ${r.int(1000)}], name="${r.pick(REGIONS)}")  # ${2000 + r.int(25)}\n`);
const rstRows = () =>
  lineBlock("rst", (r, i) => (i % 12 === 0 ? `\nSection ${i}\n${"-".repeat(8 + String(i).length)}\n\n` : `* ${r.pick(REGIONS)} ${2000 + r.int(25)}: :func:\`value_${r.int(500)}\` (${r.pick(UNITS)})\n`));
const cssRows = () =>
  lineBlock("css", (r, i) => `.sd-c${i} { margin: ${r.int(24)}px ${r.int(24)}px; color: #${(r.u32() & 0xffffff).toString(16).padStart(6, "0")}; }\n`);
const jsRows = () => lineBlock("js", (r, i) => `  v${i}: [${r.int(100_000)}, ${r.int(100_000)}, "${r.pick(REGIONS)}"],\n`);
const mdRows = () =>
  lineBlock("md", (r, i) => (i % 10 === 0 ? `\n## ${r.pick(REGIONS)} ${2000 + r.int(25)}\n\n` : `- **${r.pick(REGIONS)}**: ${r.int(100_000)} ${r.pick(UNITS)} (${2000 + r.int(25)})\n`));
const rRows = () =>
  lineBlock("rscript", (r, i) => `obs_${i} <- tibble(region = "${r.pick(REGIONS)}", year = ${2000 + r.int(25)}L, value = ${(r.int(10_000_000) / 100).toFixed(2)})\n`);
const yamlRows = () => lineBlock("yaml", (r, i) => `  - name: step-${i}\n    region: ${r.pick(REGIONS)}\n    year: ${2000 + r.int(25)}\n`);
const sqlRows = () =>
  lineBlock("sql", (r, i) => `INSERT INTO observation VALUES (${i}, '${r.pick(REGIONS)}', ${2000 + r.int(25)}, ${(r.int(10_000_000) / 100).toFixed(2)});\n`);
const diffRows = () =>
  lineBlock("diff", (r, i) => `${r.chance(0.5) ? "+" : "-"}${i};${r.pick(REGIONS)};${2000 + r.int(25)};${(r.int(10_000_000) / 100).toFixed(2)}\n`);
const txtRows = () =>
  lineBlock("txt", (r, i) => `${String(i).padStart(6, "0")} ${r.pick(REGIONS)} ${2000 + r.int(25)} ${r.int(100_000)} ${r.pick(UNITS)}\n`);

/**
 * Writes `prefix`, then whole lines of `block` from a seed-dependent line start,
 * blank padding, then `suffix`: exactly `bytes` long, every line intact.
 */
function textBody(bytes: number, seed: number, prefix: string, block: Buffer, suffix: string): Buffer {
  const out = Buffer.alloc(bytes, 0x20);
  const head = out.write(prefix, 0, "latin1");
  const end = bytes - Buffer.byteLength(suffix, "latin1");
  const room = end - head;
  if (room > 1) {
    const start = block.indexOf(0x0a, seed % OFFSET_WINDOW) + 1;
    const copied = block.copy(out, head, start, Math.min(block.length, start + room - 1));
    const lastNl = out.lastIndexOf(0x0a, head + copied - 1);
    if (lastNl >= head) out.fill(0x20, lastNl + 1, end);
    else out.fill(0x20, head, end);
    out[end - 1] = 0x0a;
  }
  if (end >= head) out.write(suffix, end, "latin1");
  return out;
}

function binaryBody(bytes: number, seed: number, prefix: Buffer, suffix: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  prefix.copy(out, 0);
  const room = Math.max(0, bytes - prefix.length - suffix.length);
  const block = randomBlock();
  const start = seed % OFFSET_WINDOW;
  block.copy(out, prefix.length, start, start + room);
  suffix.copy(out, bytes - suffix.length);
  return out;
}

function pdfBody(bytes: number, seed: number): Buffer {
  const suffix = Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 5 >>\n%%EOF\n", "latin1");
  const head = (len: number) =>
    "%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
    "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
    "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>\nendobj\n" +
    `4 0 obj\n<< /Length ${String(len).padStart(8, " ")} /Filter /FlateDecode >>\nstream\n`;
  const prefixLen = head(0).length;
  const streamLen = Math.max(0, bytes - prefixLen - suffix.length);
  return binaryBody(bytes, seed, Buffer.from(head(streamLen), "latin1"), suffix);
}

/** A stored (uncompressed) ZIP: real local headers, central directory and CRCs. */
function zipBody(bytes: number, seed: number, entries: Array<{ name: string; data?: string | Buffer }>, fill: Buffer): Buffer {
  const names = entries.map((e) => Buffer.from(e.name, "latin1"));
  const fixed = entries.reduce((n, e, i) => n + 30 + 46 + 2 * (names[i] as Buffer).length + (e.data?.length ?? 0), 0) + 22;
  const fillLen = Math.max(0, bytes - fixed);
  const datas = entries.map((e) => {
    if (e.data !== undefined) return typeof e.data === "string" ? Buffer.from(e.data, "latin1") : e.data;
    const start = fill.indexOf(0x0a, seed % OFFSET_WINDOW) + 1;
    return fill.subarray(start, start + fillLen);
  });
  const out = Buffer.alloc(Math.max(bytes, fixed + fillLen));
  const central: Array<{ off: number; crc: number }> = [];
  let p = 0;
  entries.forEach((_, i) => {
    const name = names[i] as Buffer;
    const data = datas[i] as Buffer;
    const crc = zlib.crc32(data);
    central.push({ off: p, crc });
    out.writeUInt32LE(0x04034b50, p);
    out.writeUInt16LE(20, p + 4);
    out.writeUInt16LE(0x21, p + 10); // 01:00, 1 Jan 1980 DOS time/date: fixed for determinism
    out.writeUInt32LE(crc, p + 14);
    out.writeUInt32LE(data.length, p + 18);
    out.writeUInt32LE(data.length, p + 22);
    out.writeUInt16LE(name.length, p + 26);
    name.copy(out, p + 30);
    data.copy(out, p + 30 + name.length);
    p += 30 + name.length + data.length;
  });
  const cdStart = p;
  entries.forEach((_, i) => {
    const name = names[i] as Buffer;
    const data = datas[i] as Buffer;
    const c = central[i] as { off: number; crc: number };
    out.writeUInt32LE(0x02014b50, p);
    out.writeUInt16LE(20, p + 4);
    out.writeUInt16LE(20, p + 6);
    out.writeUInt16LE(0x21, p + 14);
    out.writeUInt32LE(c.crc, p + 16);
    out.writeUInt32LE(data.length, p + 20);
    out.writeUInt32LE(data.length, p + 24);
    out.writeUInt16LE(name.length, p + 28);
    out.writeUInt32LE(c.off, p + 42);
    name.copy(out, p + 46);
    p += 46 + name.length;
  });
  out.writeUInt32LE(0x06054b50, p);
  out.writeUInt16LE(entries.length, p + 8);
  out.writeUInt16LE(entries.length, p + 10);
  out.writeUInt32LE(p - cdStart, p + 12);
  out.writeUInt32LE(cdStart, p + 16);
  return out;
}

/** Spreadsheet rows of a worksheet, with their own row numbers (a file starts at any of them). */
const sheetRows = () =>
  lineBlock("xlsx-rows", (r, i) => {
    const row = i + 1;
    const text = (col: string, value: string) => `<c r="${col}${row}" t="inlineStr"><is><t>${value}</t></is></c>`;
    const number = (col: string, value: string) => `<c r="${col}${row}"><v>${value}</v></c>`;
    return `<row r="${row}">${number("A", String(i))}${text("B", r.pick(REGIONS))}${number("C", String(2000 + r.int(25)))}${number("D", (r.int(10_000_000) / 100).toFixed(2))}${text("E", r.pick(UNITS))}</row>\n`;
  });

const XLSX_PARTS: Array<{ name: string; data: string }> = [
  {
    name: "[Content_Types].xml",
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  },
  {
    name: "_rels/.rels",
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  },
  {
    name: "xl/workbook.xml",
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
  },
  {
    name: "xl/_rels/workbook.xml.rels",
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  },
];
const SHEET_ENTRY = "xl/worksheets/sheet1.xml";
const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>\n' +
  '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>region</t></is></c><c r="C1" t="inlineStr"><is><t>year</t></is></c>' +
  '<c r="D1" t="inlineStr"><is><t>value</t></is></c><c r="E1" t="inlineStr"><is><t>unit</t></is></c></row>\n';
const SHEET_TAIL = "</sheetData></worksheet>\n";

/**
 * A real workbook (one sheet of rows under a header, so a preview shows a table) of exactly
 * `bytes` when `bytes` leaves room for its parts: the sheet takes what the other parts leave.
 */
function xlsxBody(bytes: number, seed: number): Buffer {
  const zipOverhead = (name: string) => 30 + 46 + 2 * Buffer.byteLength(name, "latin1");
  const fixed = XLSX_PARTS.reduce((n, part) => n + zipOverhead(part.name) + part.data.length, 0) + zipOverhead(SHEET_ENTRY) + 22;
  const sheetBytes = Math.max(SHEET_HEAD.length + SHEET_TAIL.length + 1, bytes - fixed);
  const sheet = textBody(sheetBytes, seed, SHEET_HEAD, sheetRows(), SHEET_TAIL);
  return zipBody(bytes, seed, [...XLSX_PARTS, { name: SHEET_ENTRY, data: sheet }], Buffer.alloc(0));
}

const ODF_MIME = {
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odt: "application/vnd.oasis.opendocument.text",
};

/** The body of a file: exactly `ref.bytes` long, identical for identical refs. */
export function fileBody(ref: FileRef): Buffer {
  const { bytes, seed } = ref;
  const f: FormatName = ref.format;
  switch (f) {
    case "csv":
      return textBody(bytes, seed, "id;region;year;value;unit;status\n", csvRows(), "");
    case "txt":
      return textBody(bytes, seed, `Extraction ${seed.toString(16)}\n\n`, txtRows(), "");
    case "json":
      return textBody(bytes, seed, `{"dataset":"${seed.toString(16)}","records":[{"id":0}\n`, jsonRows(), "]}\n");
    case "xml":
    case "rdf":
      return textBody(bytes, seed, `<?xml version="1.0" encoding="UTF-8"?>\n<dataset id="${seed.toString(16)}">\n`, xmlRows(), "</dataset>\n");
    case "rss":
      return textBody(bytes, seed, `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>News</title>\n`, xmlRows(), "</channel></rss>\n");
    case "atom":
      return textBody(bytes, seed, `<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>Recent submissions</title>\n`, xmlRows(), "</feed>\n");
    case "bibtex":
      return textBody(bytes, seed, `@misc{item${seed.toString(16)},\n  note = {`, txtRows(), "}\n}\n");
    case "ris":
      return textBody(bytes, seed, `TY  - GEN\nID  - ${seed.toString(16)}\nN1  - `, txtRows(), "ER  - \n");
    case "endnote":
      return textBody(bytes, seed, `%0 Generic\n%M ${seed.toString(16)}\n%Z `, txtRows(), "\n");
    case "ics":
      return textBody(bytes, seed, `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//sitesim//EN\nBEGIN:VEVENT\nUID:${seed}@sitesim\nDESCRIPTION:`, txtRows(), "END:VEVENT\nEND:VCALENDAR\n");
    case "wikitext":
      return textBody(bytes, seed, `'''Page ${seed.toString(16)}'''\n\n== Data ==\n`, txtRows(), "\n[[Category:Datasets]]\n");
    case "rst":
      return textBody(bytes, seed, `Page ${seed.toString(16)}\n${"=".repeat(13)}\n\n.. currentmodule:: tb\n\n`, rstRows(), "");
    case "py":
      return textBody(bytes, seed, `"""\nExample ${seed.toString(16)}\n==================\n"""\nimport tabula as tb\n\n`, pyRows(), "");
    case "ipynb":
      return textBody(bytes, seed, `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3"}}, "cells": [{"id":0}\n`, jsonRows(), "]}\n");
    case "css":
      return textBody(bytes, seed, `/* sphinx theme ${seed.toString(16)} */\n`, cssRows(), "");
    case "js":
      return textBody(bytes, seed, `"use strict";\nvar DATA_${seed.toString(16)} = {\n`, jsRows(), "};\n");
    case "md":
      return textBody(bytes, seed, `# Notes ${seed.toString(16)}\n\n`, mdRows(), "");
    case "rscript":
      return textBody(bytes, seed, `# ${seed.toString(16)}\nlibrary(dplyr)\n\n`, rRows(), "");
    case "yaml":
      return textBody(bytes, seed, `# ${seed.toString(16)}\nsteps:\n`, yamlRows(), "");
    case "toml":
      return textBody(bytes, seed, `[project]\nname = "pkg-${seed.toString(16)}"\n\n[tool.steps]\nsteps = """\n`, yamlRows(), `"""\n`);
    case "sql":
      return textBody(bytes, seed, `-- ${seed.toString(16)}\nBEGIN;\n`, sqlRows(), "COMMIT;\n");
    case "diff":
      return textBody(bytes, seed, `From ${seed.toString(16).padStart(8, "0")} Mon Sep 17 00:00:00 2001\n---\n data.csv | 2 +-\n\n--- a/data.csv\n+++ b/data.csv\n@@ -1,3 +1,3 @@\n`, diffRows(), "");
    case "targz":
      return binaryBody(bytes, seed, Buffer.from("1f8b08000000000000ff", "hex"), Buffer.alloc(0));
    case "bundle":
      return binaryBody(bytes, seed, Buffer.from("# v2 git bundle\n", "latin1"), Buffer.alloc(0));
    case "epub":
      return zipBody(bytes, seed, [{ name: "mimetype", data: "application/epub+zip" }, { name: "EPUB/index.xhtml" }], xmlRows());
    case "pdf":
      return pdfBody(bytes, seed);
    case "zip":
      return zipBody(bytes, seed, [{ name: "data.csv" }], csvRows());
    case "xlsx":
      return xlsxBody(bytes, seed);
    case "docx":
      return zipBody(bytes, seed, [{ name: "[Content_Types].xml" }], xmlRows());
    case "ods":
    case "odt":
      return zipBody(bytes, seed, [{ name: "mimetype", data: ODF_MIME[f] }, { name: "content.xml" }], xmlRows());
    case "xls":
    case "doc":
      return binaryBody(bytes, seed, Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(0));
    case "jpg":
      return binaryBody(bytes, seed, Buffer.from("ffd8ffe000104a46494600010100000100010000", "hex"), Buffer.from("ffd9", "hex"));
    case "png":
      return binaryBody(bytes, seed, Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.from("0000000049454e44ae426082", "hex"));
    case "gif":
      return binaryBody(bytes, seed, Buffer.from("GIF89a", "latin1"), Buffer.from(";", "latin1"));
  }
}

/** Content-Type header value of a file. */
export function fileContentType(ref: FileRef): string {
  return FORMATS[ref.format].contentType;
}
