import { describe, expect, it } from "vitest";
import { ALGORITHM_DEFAULTS } from "../../lib/crawler/settings-table";
import {
  DATA_FILES_MIME_TYPES, DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_BLOCKED_MIME_PREFIXES, DOCUMENT_MIME_TYPES,
  PAPER_TARGET_MIME_TYPES,
} from "../../lib/crawler/defaults";

describe("default lists", () => {
  it("holds the paper's 38 target MIME types, distinct, lower case", () => {
    expect(PAPER_TARGET_MIME_TYPES).toHaveLength(38);
    expect(new Set(PAPER_TARGET_MIME_TYPES).size).toBe(38);
    for (const m of PAPER_TARGET_MIME_TYPES) expect(m).toMatch(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/);
    expect(PAPER_TARGET_MIME_TYPES).toContain("application/vnd.ms-excel.sheet.macroenabled.12");
  });

  it("holds the kit's 168 blocked extensions with a leading dot", () => {
    expect(DEFAULT_BLOCKED_EXTENSIONS).toHaveLength(168);
    expect(new Set(DEFAULT_BLOCKED_EXTENSIONS).size).toBe(168);
    for (const e of DEFAULT_BLOCKED_EXTENSIONS) expect(e).toMatch(/^\.[a-z0-9-]+$/);
    expect(DEFAULT_BLOCKED_EXTENSIONS[0]).toBe(".3g2");
    expect(DEFAULT_BLOCKED_EXTENSIONS.at(-1)).toBe(".xwd");
    expect(DEFAULT_BLOCKED_MIME_PREFIXES).toEqual(["image/", "audio/", "video/"]);
  });

  it("keeps the presets narrower than the paper's list", () => {
    for (const m of [...DATA_FILES_MIME_TYPES, ...DOCUMENT_MIME_TYPES]) expect(m).toMatch(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/);
    expect(DATA_FILES_MIME_TYPES).toContain("text/csv");
    expect(DATA_FILES_MIME_TYPES).not.toContain("text/plain");
    expect(DATA_FILES_MIME_TYPES).not.toContain("application/octet-stream");
    expect(DOCUMENT_MIME_TYPES).toContain("application/pdf");
  });

  it("fixes the documented numbers", () => {
    expect(ALGORITHM_DEFAULTS).toMatchObject({
      similarityThreshold: 0.75,
      hnswM: 16, hnswEfConstruction: 200, hnswEf: 10, classifierBatchSize: 10, sgdAlpha: 1e-4, earlyStopWindowRequests: 500,
      earlyStopBeta: 0.9, earlyStopTargetsPerRequest: 0.01, earlyStopPatienceWindows: 10, trapExtraLengthChars: 350, trapRepeatCount: 3,
    });
    expect(ALGORITHM_DEFAULTS.banditAlpha).toBeCloseTo(2.8284271247, 9);
  });
});
