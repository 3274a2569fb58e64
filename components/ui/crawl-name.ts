import { STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";

/** "Breadth-first", "SB-CLASSIFIER": a strategy's display name, without its explanation in brackets. */
export function strategyDisplayName(strategy: string): string {
  return (STRATEGY_LABELS[strategy as Strategy] ?? strategy).split(" (")[0]!;
}

/**
 * A crawl's name as the pages show it: a stored replay name's strategy key ("Replay of crawl 4
 * (bfs)") becomes its display name ("Replay of crawl 4 (Breadth-first)"), as everywhere else.
 */
export function crawlDisplayName(name: string): string {
  return name.replace(/\(([a-z-]+)\)$/, (whole, key: string) => (key in STRATEGY_LABELS ? `(${strategyDisplayName(key)})` : whole));
}
