import type { ActionGrouper } from "../../action-grouping";
import type { BanditActionStats, SleepingBandit } from "../../sleeping-bandit";
import type { GroupRow } from "../types";

/**
 * The cockpit's rows for the groups of a grouper whose statistics a bandit keeps. `available`
 * may be overridden (TP-OFF's links wait in a FIFO, not in the bandit, until the freeze).
 */
export function groupRows(grouper: ActionGrouper, bandit: SleepingBandit, available: (stats: BanditActionStats) => number = (s) => s.available): GroupRow[] {
  const rows: GroupRow[] = [];
  for (let groupId = 0; groupId < grouper.actionCount; groupId++) {
    const stats = bandit.stats(groupId);
    rows.push({
      groupId,
      sampleTagPath: grouper.sampleTagPath(groupId) ?? "",
      members: grouper.members(groupId),
      available: available(stats),
      selections: stats.selections,
      meanReward: stats.meanReward,
      totalReward: stats.totalReward,
    });
  }
  return rows;
}
