/**
 * File description pages (`/wiki/File:<name>`): the file itself ("Original file" or the
 * full-resolution image, other resolutions, the PDF's first page), the description, the
 * "File history" table (current version and archived ones, each a link to its
 * `/images/…` address), "File usage" (pages linking the file) and metadata. A deleted
 * file's page says "No file by this name exists" and links the upload form instead.
 */
import { FORMATS, mimeOf } from "../formats";
import type { HtmlSink } from "../html-sink";
import { hash32 } from "../random";
import { humanBytes } from "../text";
import { parserOutput } from "./wiki-content";
import { fileBytesOf, fileDimensions, fileVersionRef, otherResolutions } from "./wiki-files";
import { formatMinute, mwTimestamp, type WikiModel } from "./wiki-model";
import { pageLinkList, userLinks } from "./wiki-skin";
import { archiveHref, imageHref, specialHref, specialIndexHref, thumbHref, viewHref } from "./wiki-urls";

const num = (x: number) => x.toLocaleString("en-US");

function heading(s: HtmlSink, id: string, text: string): void {
  s.el("h2", undefined, text, id);
}

/** The inside of `#mw-content-text` on a file description page. */
export function filePageBody(s: HtmlSink, m: WikiModel, p: number): void {
  const page = m.pages[p]!;
  const f = page.ref;
  const file = m.files[f]!;
  const label = file.name.replace(/_/g, " ");
  s.raw(`<ul id="filetoc"><li><a href="#file">File</a></li><li><a href="#filehistory">File history</a></li><li><a href="#filelinks">File usage</a></li></ul>`);
  if (!s.withText) {
    for (const frag of ["#file", "#filehistory", "#filelinks"]) s.a(frag, "");
  }
  if (file.status === "deleted") {
    s.open("div", "mw-filepage-nofile");
    s.text("No file by this name exists, but you can ");
    s.a(specialIndexHref("Upload", [["wpDestFile", file.name]]), "upload it", "new");
    s.text(".");
    s.close("div");
    s.open("div", "mw-warning-with-logexcerpt");
    s.el("p", undefined, "This file has been deleted. The deletion log for this file is provided below for reference.");
    s.a(specialIndexHref("Log", [["page", `File:${label}`]]), "View full log");
    s.close("div");
  } else {
    const [w, h] = fileDimensions(m, f);
    const bytes = humanBytes(fileBytesOf(m, f));
    const mime = mimeOf(FORMATS[file.format].contentType);
    s.open("div", "fullImageLink", "file");
    if (file.image) s.aWrap(imageHref(file.name), undefined, () => s.img(thumbHref(file.name, Math.min(800, w - 1)), label));
    else if (file.format === "pdf") s.aWrap(imageHref(file.name), undefined, () => s.img(thumbHref(file.name, 424), label));
    else s.img("/resources/assets/file-type-icons/fileicon.png", "");
    s.close("div");
    s.open("div", "fullMedia");
    s.open("p");
    s.a(imageHref(file.name), file.image ? "Original file" : file.format === "pdf" ? "Original file" : label, "internal", `title="${label}"`);
    s.el("span", "fileInfo", file.image || file.format === "pdf"
      ? ` (${num(w)} × ${num(h)} pixels, file size: ${bytes}, MIME type: ${mime}${file.format === "pdf" ? `, ${2 + (hash32(file.seed, 0x9a) % 60)} pages` : ""})`
      : ` (file size: ${bytes}, MIME type: ${mime})`);
    s.close("p");
    s.close("div");
    const widths = file.image || file.format === "pdf" ? otherResolutions(m, f) : [];
    if (widths.length > 0) {
      s.open("div", "mw-filepage-other-resolutions");
      s.text("Other resolutions: ");
      widths.forEach((x, k) => {
        if (k > 0) s.text(" | ");
        s.a(thumbHref(file.name, x), `${num(x)} × ${num(Math.round((x * h) / w))} pixels`, "mw-thumbnail-link");
      });
      s.close("div");
    }
  }
  s.open("div", undefined, "mw-imagepage-content", `lang="en" dir="ltr"`);
  heading(s, "Summary", "Summary");
  parserOutput(s, m, p);
  if (file.owner >= 0) {
    s.open("p");
    s.text("Uploaded for ");
    s.a(viewHref(m.pages[file.owner]!.title), m.pages[file.owner]!.title.text);
    s.text(".");
    s.close("p");
  }
  s.close("div");
  if (file.status !== "deleted") {
    heading(s, "filehistory", "File history");
    s.open("div", undefined, "mw-imagepage-section-filehistory");
    s.el("p", undefined, "Click on a date/time to view the file as it appeared at that time.");
    s.open("table", "wikitable filehistory");
    s.raw("<tr><th></th><th>Date/Time</th><th>Dimensions</th><th>User</th><th>Comment</th></tr>");
    for (let v = file.uploads.length - 1; v >= 0; v--) {
      const current = v === file.uploads.length - 1;
      const href = current ? imageHref(file.name) : archiveHref(file.name, mwTimestamp(file.uploads[v]!));
      s.open("tr");
      s.el("td", undefined, current ? "current" : "");
      s.open("td", current ? "filehistory-selected" : undefined, undefined, `style="white-space: nowrap;"`);
      s.a(href, formatMinute(file.uploads[v]!));
      s.close("td");
      s.el("td", undefined, `(${humanBytes(fileVersionRef(m, f, v).bytes)})`);
      s.open("td");
      userLinks(s, m, file.uploader);
      s.close("td");
      s.el("td", undefined, v === 0 ? "Initial upload" : "New release");
      s.close("tr");
    }
    s.close("table");
    s.close("div");
    s.a(specialIndexHref("Upload", [["wpDestFile", file.name], ["wpForReUpload", "1"]]), "Upload a new version of this file", undefined, `id="mw-imagepage-reupload-link"`);
  }
  heading(s, "filelinks", "File usage");
  s.open("div", undefined, "mw-imagepage-section-linkstoimage");
  const users = m.usage[f]!;
  if (users.length === 0) s.el("p", undefined, "There are no pages that use this file.");
  else {
    s.el("p", undefined, "The following pages link to this file:");
    pageLinkList(s, m, users, "mw-imagepage-linkstoimage");
  }
  s.close("div");
  if (file.status !== "deleted" && (file.image || file.format === "pdf")) {
    heading(s, "metadata", "Metadata");
    s.el("p", undefined, "This file contains additional information, probably added from the digital camera or scanner used to create or digitize it.");
    s.a(specialHref("MediaStatistics"), "Media statistics");
  }
}
