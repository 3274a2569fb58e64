import type { PullResult } from "./strategies/strategy";

/**
 * The reward rules of a pull, in one place (docs/ALGORITHM.md "Reward"). A pull is one link the
 * strategy chose, fetched with its redirects; what it was decides what the bandit learns.
 */
export type Pull =
  /** An HTML page was read: its new targets were downloaded, a re-crawl's known files checked. */
  | { kind: "page"; newTargets: number; changedKnownFiles: number }
  /** The link typed as a page answered a target file (`stored`: its body was kept). */
  | { kind: "target"; stored: boolean }
  /** Neither: an error, a redirect that was not followed, another MIME type, robots.txt. */
  | { kind: "nothing" };

/** The settings the rules read (crawl-config.ts `params`). */
export interface RewardRules {
  readonly rewardPulledTargets: boolean;
}

export function pullReward(pull: Pull, rules: RewardRules): PullResult {
  switch (pull.kind) {
    case "page":
      // The paper's reward: new in-site links on the page confirmed as targets by their download
      // (links seen before, as targets or in the frontier, are not new). A re-crawl adds the known
      // files found changed: they are what a re-crawl is for.
      return { reward: pull.newTargets + pull.changedKnownFiles, wasHtml: true };
    case "target":
      // The paper counts a page pull that was not HTML as failed (reward 0). Forage's
      // `rewardPulledTargets` counts 1 when it was a target that was kept: document links typed
      // as pages until pulled are otherwise a group that pays nothing, and is starved.
      return { reward: rules.rewardPulledTargets && pull.stored ? 1 : 0, wasHtml: false };
    case "nothing":
      return { reward: 0, wasHtml: false };
  }
}

/**
 * How the bandit records a pull (ALGORITHM.md step 5): a pull that reached no HTML page and
 * brought nothing is a *failed* pull, still one selection with reward 0, so that a group of dead
 * links or extension-less images loses its exploration bonus (the kit did not count it).
 */
export function isFailedPull(result: PullResult): boolean {
  return !result.wasHtml && result.reward === 0;
}
