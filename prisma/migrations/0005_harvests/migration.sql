-- CreateTable
CREATE TABLE "Harvest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "cron" TEXT,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "webhookUrl" TEXT,
    "webhookSecret" TEXT,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "createdById" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "nextRunAt" DATETIME,
    "lastScheduledAt" DATETIME,
    CONSTRAINT "Harvest_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "HarvestEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "harvestId" INTEGER NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "details" TEXT,
    CONSTRAINT "HarvestEvent_harvestId_fkey" FOREIGN KEY ("harvestId") REFERENCES "Harvest" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "harvestId" INTEGER NOT NULL,
    "crawlId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookDelivery_harvestId_fkey" FOREIGN KEY ("harvestId") REFERENCES "Harvest" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Crawl" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT,
    "rootUrl" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "strategy" TEXT NOT NULL,
    "seed" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "stopReason" TEXT,
    "stopDetail" TEXT,
    "pendingControl" TEXT,
    "replayOfCrawlId" INTEGER,
    "harvestId" INTEGER,
    "createdById" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "activeMs" INTEGER NOT NULL DEFAULT 0,
    "requestsCount" INTEGER NOT NULL DEFAULT 0,
    "getCount" INTEGER NOT NULL DEFAULT 0,
    "headCount" INTEGER NOT NULL DEFAULT 0,
    "targetsCount" INTEGER NOT NULL DEFAULT 0,
    "targetBytes" BIGINT NOT NULL DEFAULT 0,
    "nonTargetBytes" BIGINT NOT NULL DEFAULT 0,
    "errorsCount" INTEGER NOT NULL DEFAULT 0,
    "robotsSkips" INTEGER NOT NULL DEFAULT 0,
    "frontierSize" INTEGER NOT NULL DEFAULT 0,
    "groupsCount" INTEGER NOT NULL DEFAULT 0,
    "workerId" TEXT,
    "leaseExpiresAt" DATETIME,
    CONSTRAINT "Crawl_harvestId_fkey" FOREIGN KEY ("harvestId") REFERENCES "Harvest" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Crawl_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Crawl" ("activeMs", "config", "createdAt", "createdById", "errorsCount", "finishedAt", "frontierSize", "getCount", "groupsCount", "headCount", "id", "leaseExpiresAt", "name", "nonTargetBytes", "pendingControl", "replayOfCrawlId", "requestsCount", "robotsSkips", "rootUrl", "seed", "startedAt", "status", "stopDetail", "stopReason", "strategy", "targetBytes", "targetsCount", "updatedAt", "workerId") SELECT "activeMs", "config", "createdAt", "createdById", "errorsCount", "finishedAt", "frontierSize", "getCount", "groupsCount", "headCount", "id", "leaseExpiresAt", "name", "nonTargetBytes", "pendingControl", "replayOfCrawlId", "requestsCount", "robotsSkips", "rootUrl", "seed", "startedAt", "status", "stopDetail", "stopReason", "strategy", "targetBytes", "targetsCount", "updatedAt", "workerId" FROM "Crawl";
DROP TABLE "Crawl";
ALTER TABLE "new_Crawl" RENAME TO "Crawl";
CREATE INDEX "Crawl_status_createdAt_idx" ON "Crawl"("status", "createdAt");
CREATE INDEX "Crawl_createdAt_idx" ON "Crawl"("createdAt");
CREATE INDEX "Crawl_status_leaseExpiresAt_idx" ON "Crawl"("status", "leaseExpiresAt");
CREATE INDEX "Crawl_harvestId_id_idx" ON "Crawl"("harvestId", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Harvest_nextRunAt_idx" ON "Harvest"("nextRunAt");

-- CreateIndex
CREATE INDEX "HarvestEvent_harvestId_id_idx" ON "HarvestEvent"("harvestId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_crawlId_key" ON "WebhookDelivery"("crawlId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_state_nextAttemptAt_idx" ON "WebhookDelivery"("state", "nextAttemptAt");

-- No overlapping runs of one harvest, as a constraint rather than check-then-insert: at most one
-- queued, running or paused crawl per harvest (Prisma cannot declare partial indexes).
CREATE UNIQUE INDEX "Crawl_one_active_run_per_harvest" ON "Crawl"("harvestId") WHERE "harvestId" IS NOT NULL AND "status" IN ('queued', 'running', 'paused');
