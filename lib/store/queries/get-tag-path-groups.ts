import type { Db } from "../prisma-client";
import { requireCrawl } from "./require-crawl";

/** One tag-path group (bandit action) as the "Why there?" panel shows it. */
export interface TagPathGroupView {
  groupId: number;
  sampleTagPath: string;
  members: number;
  available: number;
  /** No unvisited link left: the bandit cannot choose it. */
  sleeping: boolean;
  selections: number;
  meanReward: number;
  totalReward: number;
}

export const GROUP_SORTS = ["meanReward", "totalReward", "selections", "members"] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];

export interface TagPathGroupsOptions {
  /** @default 50 */
  limit?: number;
  /** Descending; ties by group number. @default "meanReward" */
  sort?: GroupSort;
}

/**
 * The crawl's best groups by `sort`, and how many groups there are in all.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getTagPathGroups(
  db: Db,
  crawlId: number,
  { limit = 50, sort = "meanReward" }: TagPathGroupsOptions = {},
): Promise<{ groups: TagPathGroupView[]; total: number }> {
  await requireCrawl(db, crawlId);
  const [rows, total] = await Promise.all([
    db.tagPathGroup.findMany({
      where: { crawlId },
      orderBy: [{ [sort]: "desc" }, { groupId: "asc" }],
      take: limit,
    }),
    db.tagPathGroup.count({ where: { crawlId } }),
  ]);
  return {
    groups: rows.map((row) => ({
      groupId: row.groupId,
      sampleTagPath: row.sampleTagPath,
      members: row.members,
      available: row.available,
      sleeping: row.available === 0,
      selections: row.selections,
      meanReward: row.meanReward,
      totalReward: row.totalReward,
    })),
    total,
  };
}
