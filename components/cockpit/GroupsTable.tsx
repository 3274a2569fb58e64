import type { TagPathGroup } from "@/components/hooks/api-types";
import { formatInteger } from "@/lib/format";
import { TagPath } from "./TagPath";

/** `actionNames`: the readable names of an application's enumerations, by their tag path (`/application:…`). */
export function GroupsTable({ groups, actionNames = {} }: { groups: TagPathGroup[]; actionNames?: Record<string, string> }) {
  return (
    <div className="table-scroll">
      <table className="data-table groups-table responsive-table" aria-label="Tag-path groups">
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">Tag path</th>
            <th scope="col" className="num">Mean reward</th>
            <th scope="col" className="num">Selections</th>
            <th scope="col" className="num">Available links</th>
            <th scope="col" className="num">Members</th>
            <th scope="col" className="num">Total reward</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <tr key={group.groupId} className={group.sleeping ? "row-sleeping" : undefined} data-testid={`group-${group.groupId}`}>
              <td data-label="Group">#{group.groupId}</td>
              <td data-label="Tag path" className="tag-path-cell cell-wide cell-first">
                {actionNames[group.sampleTagPath] ? (
                  <span className="application-action" title={group.sampleTagPath}>
                    <span className="badge">API</span> {actionNames[group.sampleTagPath]}
                  </span>
                ) : (
                  <TagPath path={group.sampleTagPath} />
                )}
              </td>
              <td className="num" data-label="Mean reward">{group.meanReward.toFixed(2)}</td>
              <td className="num" data-label="Selections">{formatInteger(group.selections)}</td>
              <td className="num" data-label="Available links">
                <span>{formatInteger(group.available)}</span>
                {group.sleeping ? (
                  <span className="badge badge-sleeping" title="No unvisited link left: the bandit cannot pick this group">
                    sleeping
                  </span>
                ) : null}
              </td>
              <td className="num" data-label="Members">{formatInteger(group.members)}</td>
              <td className="num" data-label="Total reward">{formatInteger(group.totalReward)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
