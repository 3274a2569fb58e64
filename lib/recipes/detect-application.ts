import { RobotsTxt } from "../crawler/fetch/robots-rules";
import { ROBOTS_USER_AGENT_TOKEN } from "../crawler/fetch/robots";
import { probeVerdict } from "./probe-answer";
import { pageSigns } from "./page-signs";
import { recogniseApplications, type Candidate } from "./recognise";
import type { Recipe } from "./recipe-schema";

/**
 * `forage detect URL`: what Forage recognises on a site, with the evidence, in a few requests —
 * the page itself, robots.txt, and at most one probe per application its page already points
 * to. A probe robots.txt disallows is not sent.
 */
export interface FetchedText {
  status: number;
  headers: Array<[string, string]>;
  body: string;
  /** The URL answered, after redirects. */
  url: string;
}

/** One GET; the caller applies its network policy, size cap and time limit. */
export type FetchText = (url: string) => Promise<FetchedText>;

export interface Detection {
  recipe: Recipe;
  base: string;
  version?: string;
  evidence: string[];
  /** confirmed: the probe answered as the recipe expects; signs-only: no probe in the recipe; refused: the probe failed (the application may still be there, its API is not). */
  probe: { state: "confirmed" | "signs-only" | "refused" | "disallowed"; url?: string; detail?: string };
}

export interface DetectionReport {
  pageUrl: string;
  requests: number;
  detections: Detection[];
}

export async function detectApplications(url: string, recipes: readonly Recipe[], fetchText: FetchText): Promise<DetectionReport> {
  const page = await fetchText(url);
  let requests = 1;
  const signs = pageSigns(page.url, page.body, page.headers);
  const candidates = recogniseApplications(recipes, signs, page.url);
  let robots: RobotsTxt | undefined;
  const detections: Detection[] = [];
  for (const candidate of candidates) {
    const probe = candidate.recipe.recognise.probe;
    if (!probe) {
      detections.push(detection(candidate, { state: "signs-only" }));
      continue;
    }
    const probeUrl = new URL(probe.path, candidate.base).href;
    if (!robots) {
      const answer = await fetchText(new URL("/robots.txt", page.url).href).catch(() => null);
      requests += 1;
      robots = RobotsTxt.parse(answer && answer.status >= 200 && answer.status < 300 ? answer.body : "");
    }
    if (!robots.isAllowed(probeUrl, ROBOTS_USER_AGENT_TOKEN)) {
      detections.push(detection(candidate, { state: "disallowed", url: probeUrl, detail: "robots.txt disallows the probe" }));
      continue;
    }
    requests += 1;
    const answer = await fetchText(probeUrl).catch((error: unknown) => error);
    if (!answer || answer instanceof Error || typeof answer !== "object" || !("status" in answer)) {
      detections.push(detection(candidate, { state: "refused", url: probeUrl, detail: answer instanceof Error ? answer.message : "no answer" }));
      continue;
    }
    const probed = answer as FetchedText;
    if (probed.status < 200 || probed.status >= 300) {
      detections.push(detection(candidate, { state: "refused", url: probeUrl, detail: `answered ${probed.status}` }));
      continue;
    }
    const verdict = probeVerdict(probe, probed.body);
    if (!verdict.confirmed) {
      detections.push(detection(candidate, { state: "refused", url: probeUrl, detail: verdict.why }));
      continue;
    }
    const version = verdict.version ?? candidate.version;
    detections.push({ ...detection(candidate, { state: "confirmed", url: probeUrl }), ...(version ? { version } : {}) });
  }
  return { pageUrl: page.url, requests, detections };
}

function detection(candidate: Candidate, probe: Detection["probe"]): Detection {
  return { recipe: candidate.recipe, base: candidate.base, evidence: candidate.evidence, probe, ...(candidate.version ? { version: candidate.version } : {}) };
}
