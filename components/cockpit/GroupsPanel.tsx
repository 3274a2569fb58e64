"use client";

import { useState } from "react";
import { GroupRewardsChart } from "@/components/crawl-charts/GroupRewardsChart";
import { GROUP_SORTS, type GroupSort } from "@/components/hooks/api-types";
import { useCrawlGroupsQuery } from "@/components/hooks/use-crawl-groups-query";
import { formatInteger } from "@/lib/format";
import { GroupsTable } from "./GroupsTable";
import { PanelError, PanelLoading } from "./QueryState";

const SORT_LABELS: Record<GroupSort, string> = {
  meanReward: "Mean reward",
  totalReward: "Total reward",
  selections: "Selections",
  members: "Members",
};
const PAGE = 20;

/** "Why there?": the bandit's groups, what each pull earned, which ones are used up. */
export function GroupsPanel({ crawlId, live, strategy, actionNames = {} }: { crawlId: number; live: boolean; strategy: string; actionNames?: Record<string, string> }) {
  const [sort, setSort] = useState<GroupSort>("meanReward");
  const [limit, setLimit] = useState(PAGE);
  const query = useCrawlGroupsQuery(crawlId, { sort, limit, live });
  const groups = query.data?.groups ?? [];
  const total = query.data?.total ?? 0;
  const usesGroups = strategy === "sb" || strategy === "sb-paper" || strategy === "sb-oracle" || strategy === "tp-off";

  return (
    <section className="panel" id="groups" aria-labelledby="groups-title">
      <div className="groups-top">
        <div>
          <h2 id="groups-title">Tag-path groups</h2>
          <p className="panel-hint">
            Why the crawler goes where it goes. Links are grouped by where they sit in their page (their tag path); each
            pull crawls one link of a group, and its reward is the number of new target links found on the page it
            reached. The crawler favours groups with a high mean reward, plus a bonus for groups it has rarely tried.
            A group with no link left to visit is sleeping.
          </p>
        </div>
        {groups.length > 0 ? (
          <div className="groups-chart">
            <GroupRewardsChart groups={groups} />
          </div>
        ) : null}
      </div>
      {query.error ? <PanelError label="the groups" error={query.error} /> : null}
      {query.isPending ? <PanelLoading label="the groups" /> : null}
      {query.data && groups.length === 0 ? (
        <p className="empty">
          {usesGroups
            ? "No group yet: groups appear as soon as the root page has been parsed."
            : "This strategy does not learn tag-path groups; the table stays empty."}
        </p>
      ) : null}
      {groups.length > 0 ? (
        <>
          <div className="table-toolbar">
            <h3 id="groups-table-title">{sort === "meanReward" ? "Best groups" : `Groups by ${SORT_LABELS[sort].toLowerCase()}`}</h3>
            <div className="panel-tools">
              <label htmlFor="groups-sort">Sort by</label>
              <select id="groups-sort" value={sort} onChange={(event) => setSort(event.target.value as GroupSort)}>
                {GROUP_SORTS.map((key) => (
                  <option key={key} value={key}>
                    {SORT_LABELS[key]}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <GroupsTable groups={groups} actionNames={actionNames} />
          <div className="table-foot">
            <span>
              Showing {formatInteger(groups.length)} of {formatInteger(total)} groups.
            </span>
            {total > groups.length ? (
              <button type="button" className="button button-small" onClick={() => setLimit((value) => value + PAGE * 2)} disabled={query.isFetching}>
                Show more groups
              </button>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
