export { openDatabase, type Db } from "./prisma-client";
export { applyMigrations, ensureMigrated, pendingMigrations, DatabaseNotReadyError, PROJECT_ROOT } from "./migrations";
export { listCrawls, type CrawlListItem } from "./queries/list-crawls";
