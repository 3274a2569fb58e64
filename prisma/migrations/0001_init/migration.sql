-- CreateTable
CREATE TABLE "Crawl" (
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
    "leaseExpiresAt" DATETIME
);

-- CreateTable
CREATE TABLE "CrawlRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" INTEGER,
    "mime" TEXT,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "tagPath" TEXT,
    "groupId" INTEGER,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "referrer" TEXT,
    "isTarget" BOOLEAN NOT NULL DEFAULT false,
    "outcome" TEXT NOT NULL DEFAULT 'ok',
    "error" TEXT,
    "redirectTo" TEXT,
    "headers" TEXT,
    "bodySha256" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CrawlRequest_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Target" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "storagePath" TEXT NOT NULL,
    "sourceUrl" TEXT,
    "tagPath" TEXT,
    "groupId" INTEGER,
    "requestSeq" INTEGER NOT NULL,
    "fetchedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Target_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TagPathGroup" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "groupId" INTEGER NOT NULL,
    "sampleTagPath" TEXT NOT NULL,
    "members" INTEGER NOT NULL DEFAULT 0,
    "available" INTEGER NOT NULL DEFAULT 0,
    "selections" INTEGER NOT NULL DEFAULT 0,
    "meanReward" REAL NOT NULL DEFAULT 0,
    "totalReward" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "TagPathGroup_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MetricPoint" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "requests" INTEGER NOT NULL,
    "targets" INTEGER NOT NULL,
    "targetBytes" BIGINT NOT NULL,
    "nonTargetBytes" BIGINT NOT NULL,
    "frontierSize" INTEGER NOT NULL DEFAULT 0,
    "slope" REAL,
    "ema" REAL,
    "patience" INTEGER,
    "activeMs" INTEGER NOT NULL DEFAULT 0,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "MetricPoint_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CrawlEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "crawlId" INTEGER NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "level" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,
    CONSTRAINT "CrawlEvent_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CrawlCheckpoint" (
    "crawlId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "requests" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "state" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CrawlCheckpoint_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "StoredBody" (
    "crawlId" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "storagePath" TEXT NOT NULL,
    "offset" INTEGER NOT NULL,
    "compressedBytes" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,

    PRIMARY KEY ("crawlId", "sha256"),
    CONSTRAINT "StoredBody_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "state" TEXT NOT NULL DEFAULT 'running'
);

-- CreateIndex
CREATE INDEX "Crawl_status_createdAt_idx" ON "Crawl"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Crawl_createdAt_idx" ON "Crawl"("createdAt");

-- CreateIndex
CREATE INDEX "Crawl_status_leaseExpiresAt_idx" ON "Crawl"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "CrawlRequest_crawlId_id_idx" ON "CrawlRequest"("crawlId", "id");

-- CreateIndex
CREATE INDEX "CrawlRequest_crawlId_seq_idx" ON "CrawlRequest"("crawlId", "seq");

-- CreateIndex
CREATE INDEX "CrawlRequest_crawlId_outcome_idx" ON "CrawlRequest"("crawlId", "outcome");

-- CreateIndex
CREATE INDEX "Target_crawlId_id_idx" ON "Target"("crawlId", "id");

-- CreateIndex
CREATE INDEX "Target_crawlId_mime_idx" ON "Target"("crawlId", "mime");

-- CreateIndex
CREATE INDEX "Target_crawlId_sha256_idx" ON "Target"("crawlId", "sha256");

-- CreateIndex
CREATE UNIQUE INDEX "Target_crawlId_url_key" ON "Target"("crawlId", "url");

-- CreateIndex
CREATE INDEX "TagPathGroup_crawlId_meanReward_idx" ON "TagPathGroup"("crawlId", "meanReward");

-- CreateIndex
CREATE UNIQUE INDEX "TagPathGroup_crawlId_groupId_key" ON "TagPathGroup"("crawlId", "groupId");

-- CreateIndex
CREATE UNIQUE INDEX "MetricPoint_crawlId_requests_key" ON "MetricPoint"("crawlId", "requests");

-- CreateIndex
CREATE INDEX "CrawlEvent_crawlId_id_idx" ON "CrawlEvent"("crawlId", "id");
