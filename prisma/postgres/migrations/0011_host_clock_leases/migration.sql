-- AlterTable
ALTER TABLE "HostClock" ADD COLUMN     "wantedBy" TEXT,
ADD COLUMN     "wantedUntil" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "HostClock_holder_idx" ON "HostClock"("holder");
