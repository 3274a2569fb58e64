/**
 * The MediaWiki recipe against the real MediaWiki from Debian (scripts/real-apps/mediawiki.sh):
 * recognised on its root page and confirmed by its probe, and its enumeration read to the end
 * lists exactly the files the script uploaded. Opt-in (a setup takes minutes):
 *
 *   FORAGE_REAL_APPS=1 npx vitest run test/integration/real-mediawiki.test.ts
 *
 * FORAGE_REAL_APPS_DIR reuses an instance set up earlier (`mediawiki.sh setup DIR`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectApplications } from "../../lib/recipes/detect-application";
import { firstPageUrl } from "../../lib/recipes/enumeration-pages";
import { loadRecipes } from "../../lib/recipes/load-recipes";
import type { Enumeration, Recipe } from "../../lib/recipes/recipe-schema";
import {
  fetchText,
  fileName,
  instanceFiles,
  missingPackages,
  readWholeEnumeration,
  serveInstance,
  setupInstance,
  type ServedInstance,
} from "../../scripts/real-apps/real-app-instance";
import { freePort } from "../helpers/ports";

const optedIn = process.env.FORAGE_REAL_APPS === "1";
const missing = optedIn ? missingPackages("mediawiki") : null;
const skipReason = !optedIn
  ? "set FORAGE_REAL_APPS=1 to run the recipe against a real MediaWiki (Debian's package, set up in minutes)"
  : missing
    ? `MediaWiki's packages are missing: ${missing}`
    : null;
if (skipReason) console.info(`real-mediawiki: skipped: ${skipReason}`);

const MIME_OF_EXTENSION: Record<string, string> = {
  csv: "text/csv",
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  zip: "application/zip",
  png: "image/png",
  gif: "image/gif",
};

describe("the MediaWiki recipe against the real MediaWiki", () => {
  let dir = "";
  let temporary = false;
  let served: ServedInstance | undefined;
  let recipe: Recipe;
  let allimages: Enumeration;
  let setupStarted: Date;

  beforeAll(async () => {
    if (skipReason) return;
    recipe = loadRecipes().find((loaded) => loaded.recipe.id === "mediawiki")!.recipe;
    allimages = recipe.enumerations.find((enumeration) => enumeration.id === "allimages")!;
    setupStarted = new Date();
    dir = process.env.FORAGE_REAL_APPS_DIR ?? "";
    if (!dir) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-real-mediawiki-"));
      temporary = true;
      setupInstance("mediawiki", dir, 120);
    } else {
      setupStarted = new Date(0);
    }
    served = await serveInstance("mediawiki", dir, await freePort());
  }, 600_000);

  afterAll(async () => {
    await served?.stop();
    if (temporary) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(skipReason !== null)("recognises MediaWiki on its root page and confirms it with the siteinfo probe", async () => {
    const report = await detectApplications(served!.rootUrl, loadRecipes().map((loaded) => loaded.recipe), fetchText);
    expect(report.pageUrl).toBe(`${served!.rootUrl}index.php/Main_Page`); // the root redirects to the main page
    expect(report.detections.map((detection) => detection.recipe.id)).toEqual(["mediawiki"]);
    const [detection] = report.detections;
    expect(detection!.probe.state).toBe("confirmed");
    expect(detection!.version).toMatch(/^MediaWiki 1\.39\.\d+$/);
    expect(detection!.base).toBe(served!.rootUrl);
    expect(detection!.evidence).toEqual(expect.arrayContaining([expect.stringMatching(/^generator tag "MediaWiki 1\.39/), "asset /load.php"]));
  });

  it.skipIf(skipReason !== null)("lists every uploaded file, typed and sized, with its description page, in the shipped enumeration", async () => {
    const { uploaded } = instanceFiles(dir);
    const run = await readWholeEnumeration(allimages, served!.rootUrl);
    expect(run.problem).toBeUndefined();
    expect(run.files.map((file) => fileName(file.url)).sort()).toEqual([...uploaded].sort());
    for (const file of run.files) {
      const name = fileName(file.url);
      expect(file.mime).toBe(MIME_OF_EXTENSION[name.split(".").pop()!]);
      expect(file.size).toBe(fs.statSync(path.join(dir, "source", name)).size);
      expect(file.record?.page).toBe(`${served!.rootUrl}index.php/File:${encodeURIComponent(name)}`);
    }
    // The files answer where the API says they are, with the type it states.
    const sample = run.files[0]!;
    const answer = await fetch(sample.url, { method: "HEAD" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain(sample.mime);
  });

  it.skipIf(skipReason !== null)("follows MediaWiki's continuation to the end, each file once, in pages of 50", async () => {
    const { uploaded } = instanceFiles(dir);
    // By name: MediaWiki 1.39's timestamp order leaves same-second ties to the database, inconsistently with its continuation.
    const small: Enumeration = { ...allimages, query: { ...allimages.query, ailimit: "50" } };
    const run = await readWholeEnumeration(small, served!.rootUrl);
    expect(run.problem).toBeUndefined();
    expect(run.pages).toBe(Math.ceil(uploaded.length / 50));
    expect(run.files.map((file) => fileName(file.url))).toEqual([...uploaded].sort());
  });

  it.skipIf(skipReason !== null)("keeps timestamp order's ties apart only by name: the recipe lists by name", async () => {
    // What the recipe avoids: newest first in pages of 50 loses files uploaded in the same second.
    const { uploaded } = instanceFiles(dir);
    const newestFirst: Enumeration = { ...allimages, query: { ...allimages.query, ailimit: "50", aisort: "timestamp", aidir: "older" } };
    const run = await readWholeEnumeration(newestFirst, served!.rootUrl);
    const byName = await readWholeEnumeration({ ...allimages, query: { ...allimages.query, ailimit: "50" } }, served!.rootUrl);
    expect(new Set(byName.files.map((file) => fileName(file.url))).size).toBe(uploaded.length);
    expect(new Set(run.files.map((file) => fileName(file.url))).size).toBeLessThanOrEqual(uploaded.length);
  });
});
