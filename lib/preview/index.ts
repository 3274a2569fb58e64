export { previewFile, previewFormatOf, withinTime, type PreviewFormat, type PreviewSource } from "./preview-file";
export { PREVIEW_LIMITS, type PreviewLimits } from "./preview-limits";
export { PreviewError, type FilePreview, type JsonPreview, type PdfPreview, type PreviewSheet, type TablePreview } from "./preview-types";
export { previewTarget } from "./target-preview";
export { compareVersions, type VersionComparison } from "./version-comparison";
export type { FileSummary } from "./file-summary";
