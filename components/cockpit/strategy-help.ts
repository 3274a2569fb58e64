import type { Strategy } from "@/lib/crawl-config";

/** One line per strategy: what it does, for the replay checkboxes (the names alone say little). */
export const STRATEGY_HELP: Record<Strategy, string> = {
  sb: "Forage's crawler: learns which page structures (tag paths) lead to targets.",
  "sb-paper": "The published SB-CLASSIFIER exactly, without Forage's additions.",
  "sb-oracle": "SB told every link's true type from the stored crawl: the best SB could do.",
  bfs: "Pages level by level from the root: the usual baseline.",
  dfs: "Each branch to its end before the next.",
  random: "A random waiting link each time.",
  focused: "Links ranked by a classifier of their URL and anchor text.",
  "tp-off": "Breadth-first while it scores page structures, then always the best-scored one, without learning more.",
  tres: "Deep Q-learning over a tree of link features: learns which links lead to targets a few pages later.",
};
