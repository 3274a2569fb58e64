-- AlterTable
ALTER TABLE "HostClock" ADD COLUMN "wantedBy" TEXT;
ALTER TABLE "HostClock" ADD COLUMN "wantedUntil" DATETIME;

-- CreateIndex
CREATE INDEX "HostClock_holder_idx" ON "HostClock"("holder");
