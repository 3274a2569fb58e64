/**
 * File extensions for the MIME types Forage collects, used to name exported files whose URL
 * says nothing (`/download?id=12`). The first extension of each list is the one appended;
 * the others are accepted as already right (`.htm` for text/html).
 */
const EXTENSIONS: Record<string, readonly string[]> = {
  "text/csv": [".csv"],
  "application/csv": [".csv"],
  "text/x-csv": [".csv"],
  "application/x-csv": [".csv"],
  "text/x-comma-separated-values": [".csv"],
  "text/comma-separated-values": [".csv"],
  "text/tab-separated-values": [".tsv", ".tab"],
  "application/vnd.ms-excel": [".xls", ".xlt", ".xla"],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": [".xlsx"],
  "application/vnd.ms-excel.sheet.macroenabled.12": [".xlsm"],
  "application/vnd.oasis.opendocument.spreadsheet": [".ods"],
  "application/pdf": [".pdf"],
  "application/x-pdf": [".pdf"],
  "application/zip": [".zip"],
  "application/x-zip-compressed": [".zip"],
  "application/zip-compressed": [".zip"],
  "application/x-tar": [".tar"],
  "application/x-gtar": [".tar", ".tgz", ".gz"],
  "application/gzip": [".gz", ".tgz"],
  "application/x-gzip": [".gz", ".tgz"],
  "application/x-7z-compressed": [".7z"],
  "application/vnd.rar": [".rar"],
  "application/x-rar-compressed": [".rar"],
  "application/xml": [".xml", ".xsd", ".rdf", ".kml", ".gpx"],
  "text/xml": [".xml"],
  "application/rdf+xml": [".rdf", ".xml", ".owl"],
  "application/rss+xml": [".rss", ".xml"],
  "application/atom+xml": [".atom", ".xml"],
  "application/json": [".json", ".geojson"],
  "text/json": [".json"],
  "application/geo+json": [".geojson", ".json"],
  "application/ld+json": [".jsonld", ".json"],
  "application/yaml": [".yaml", ".yml"],
  "application/x-yaml": [".yaml", ".yml"],
  "text/yaml": [".yaml", ".yml"],
  "text/x-yaml": [".yaml", ".yml"],
  "application/msword": [".doc", ".dot"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": [".docx"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.template": [".dotx"],
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": [".pptx"],
  "application/vnd.ms-powerpoint": [".ppt"],
  "application/vnd.oasis.opendocument.text": [".odt"],
  "application/vnd.oasis.opendocument.presentation": [".odp"],
  "application/rtf": [".rtf"],
  "text/plain": [".txt", ".text", ".log", ".md", ".dat", ".asc"],
  "text/html": [".html", ".htm"],
  "application/xhtml+xml": [".xhtml", ".html"],
  "application/octet-stream": [".bin", ".dat"],
};

/** Formats that are compressed already: deflating them again costs CPU and saves nothing. */
const COMPRESSED = new Set([
  "application/zip", "application/x-zip-compressed", "application/zip-compressed", "application/gzip", "application/x-gzip",
  "application/x-gtar", "application/x-7z-compressed", "application/vnd.rar", "application/x-rar-compressed", "application/pdf",
  "application/x-pdf", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-excel.sheet.macroenabled.12", "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation", "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.presentation",
]);

/** `text/csv; charset=utf-8` → `text/csv`. */
export function essenceOf(mime: string): string {
  return mime.split(";")[0]!.trim().toLowerCase();
}

/** Extensions (with the dot) that fit this MIME type; empty when unknown. */
export function extensionsFor(mime: string): readonly string[] {
  const essence = essenceOf(mime);
  return EXTENSIONS[essence] ?? (essence.endsWith("+xml") ? [".xml"] : essence.endsWith("+json") ? [".json"] : []);
}

export function isCompressedFormat(mime: string): boolean {
  return COMPRESSED.has(essenceOf(mime));
}
