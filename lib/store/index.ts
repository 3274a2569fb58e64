export { openDatabase, type Db } from "./prisma-client";
export { applyMigrations, ensureMigrated, pendingMigrations, DatabaseNotReadyError, PROJECT_ROOT } from "./migrations";

// Reads: one query per file.
export { listCrawls, type CrawlListItem } from "./queries/list-crawls";
export { type CrawlSummary } from "./queries/crawl-summary";
export { getCrawl, WAITING_EVENT_KIND, type CrawlDetail } from "./queries/get-crawl";
export { getCrawlChanges, getChangeCounts, CHANGES_EVENT_KIND, type CrawlChanges } from "./queries/get-crawl-changes";
export { getCrawlMetrics, DEFAULT_MAX_POINTS, type MetricPointView, type MetricsOptions } from "./queries/get-crawl-metrics";
export { getTagPathGroups, GROUP_SORTS, type GroupSort, type TagPathGroupView, type TagPathGroupsOptions } from "./queries/get-tag-path-groups";
export { getEarlyStopWindows, type EarlyStopView } from "./queries/get-early-stop-windows";
export { getTargetsPage, type TargetView, type TargetsPageOptions } from "./queries/get-targets-page";
export { getTargetsByMime } from "./queries/get-targets-by-mime";
export { getRequestsPage, REQUEST_OUTCOMES, type RequestOutcome, type RequestRowView, type RequestsPageOptions } from "./queries/get-requests-page";
export { getEventsPage, type CrawlEventView, type EventsPageOptions } from "./queries/get-events-page";
export { getNetworkPolicy, getServerPrivateNetworks, NETWORK_POLICY_KEY, type NetworkPolicyView } from "./queries/get-network-policy";

// Writes.
export { createCrawl, type CreateCrawlOptions } from "./commands/create-crawl";
export { saveNetworkPolicy } from "./commands/save-network-policy";
export { requestControl } from "./commands/request-control";
export { planControl, CONTROL_ACTIONS, type ControlAction, type ControlPlan, type ControlState } from "./commands/control-plan";
export { updateLiveSettings, liveSettingsPatchSchema, type LiveSettingsPatch } from "./commands/update-live-settings";
export { deleteCrawl } from "./commands/delete-crawl";
export { addCrawlEvent, type CrawlEventInput } from "./commands/add-crawl-event";
export { crawlFolderPath, discardCrawlFiles } from "./commands/crawl-files";
