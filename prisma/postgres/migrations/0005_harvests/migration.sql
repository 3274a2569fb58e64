-- AlterTable
ALTER TABLE "Crawl" ADD COLUMN     "harvestId" INTEGER;

-- CreateTable
CREATE TABLE "Harvest" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "cron" TEXT,
    "timeZone" TEXT NOT NULL DEFAULT 'UTC',
    "webhookUrl" TEXT,
    "webhookSecret" TEXT,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "createdById" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "nextRunAt" TIMESTAMP(3),
    "lastScheduledAt" TIMESTAMP(3),

    CONSTRAINT "Harvest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HarvestEvent" (
    "id" SERIAL NOT NULL,
    "harvestId" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "details" TEXT,

    CONSTRAINT "HarvestEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" SERIAL NOT NULL,
    "harvestId" INTEGER NOT NULL,
    "crawlId" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "claimedBy" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Harvest_nextRunAt_idx" ON "Harvest"("nextRunAt");

-- CreateIndex
CREATE INDEX "HarvestEvent_harvestId_id_idx" ON "HarvestEvent"("harvestId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_crawlId_key" ON "WebhookDelivery"("crawlId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_state_nextAttemptAt_idx" ON "WebhookDelivery"("state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Crawl_harvestId_id_idx" ON "Crawl"("harvestId", "id");

-- AddForeignKey
ALTER TABLE "Crawl" ADD CONSTRAINT "Crawl_harvestId_fkey" FOREIGN KEY ("harvestId") REFERENCES "Harvest"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Harvest" ADD CONSTRAINT "Harvest_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HarvestEvent" ADD CONSTRAINT "HarvestEvent_harvestId_fkey" FOREIGN KEY ("harvestId") REFERENCES "Harvest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_harvestId_fkey" FOREIGN KEY ("harvestId") REFERENCES "Harvest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- No overlapping runs of one harvest, as a constraint rather than check-then-insert: at most one
-- queued, running or paused crawl per harvest (Prisma cannot declare partial indexes).
CREATE UNIQUE INDEX "Crawl_one_active_run_per_harvest" ON "Crawl"("harvestId") WHERE "harvestId" IS NOT NULL AND "status" IN ('queued', 'running', 'paused');
