export { contentDisposition } from "./content-disposition";
export { csvCell, csvLine, type CsvValue } from "./csv";
export { type Download } from "./download";
export { targetFileName, UniqueNames, MAX_NAME_CHARS } from "./file-names";
export { manifestEntries, MANIFEST_COLUMNS, MISSING_NOTE, DUPLICATE_NOTE, type ManifestEntry } from "./manifest-entries";
export { streamManifestCsv, streamManifestJson } from "./manifest";
export { streamRequestLogCsv, REQUEST_LOG_COLUMNS } from "./request-log-csv";
export { openTargetFile } from "./target-file";
export { streamZipExport } from "./zip-export";
