-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Crawl" (
    "id" SERIAL NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
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
    "leaseExpiresAt" TIMESTAMP(3),

    CONSTRAINT "Crawl_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrawlRequest" (
    "id" SERIAL NOT NULL,
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
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CrawlRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Target" (
    "id" SERIAL NOT NULL,
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
    "fetchedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Target_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TagPathGroup" (
    "id" SERIAL NOT NULL,
    "crawlId" INTEGER NOT NULL,
    "groupId" INTEGER NOT NULL,
    "sampleTagPath" TEXT NOT NULL,
    "members" INTEGER NOT NULL DEFAULT 0,
    "available" INTEGER NOT NULL DEFAULT 0,
    "selections" INTEGER NOT NULL DEFAULT 0,
    "meanReward" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "totalReward" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TagPathGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MetricPoint" (
    "id" SERIAL NOT NULL,
    "crawlId" INTEGER NOT NULL,
    "requests" INTEGER NOT NULL,
    "targets" INTEGER NOT NULL,
    "targetBytes" BIGINT NOT NULL,
    "nonTargetBytes" BIGINT NOT NULL,
    "frontierSize" INTEGER NOT NULL DEFAULT 0,
    "slope" DOUBLE PRECISION,
    "ema" DOUBLE PRECISION,
    "patience" INTEGER,
    "activeMs" INTEGER NOT NULL DEFAULT 0,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MetricPoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrawlEvent" (
    "id" SERIAL NOT NULL,
    "crawlId" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "level" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,

    CONSTRAINT "CrawlEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CrawlCheckpoint" (
    "crawlId" INTEGER NOT NULL,
    "requests" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "state" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CrawlCheckpoint_pkey" PRIMARY KEY ("crawlId")
);

-- CreateTable
CREATE TABLE "StoredBody" (
    "crawlId" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "storagePath" TEXT NOT NULL,
    "offset" INTEGER NOT NULL,
    "compressedBytes" INTEGER NOT NULL,
    "bytes" INTEGER NOT NULL,

    CONSTRAINT "StoredBody_pkey" PRIMARY KEY ("crawlId","sha256")
);

-- CreateTable
CREATE TABLE "Worker" (
    "id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "state" TEXT NOT NULL DEFAULT 'running',

    CONSTRAINT "Worker_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "CrawlRequest" ADD CONSTRAINT "CrawlRequest_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Target" ADD CONSTRAINT "Target_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TagPathGroup" ADD CONSTRAINT "TagPathGroup_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MetricPoint" ADD CONSTRAINT "MetricPoint_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrawlEvent" ADD CONSTRAINT "CrawlEvent_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CrawlCheckpoint" ADD CONSTRAINT "CrawlCheckpoint_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StoredBody" ADD CONSTRAINT "StoredBody_crawlId_fkey" FOREIGN KEY ("crawlId") REFERENCES "Crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;
