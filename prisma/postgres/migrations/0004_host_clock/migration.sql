-- CreateTable
CREATE TABLE "HostClock" (
    "host" TEXT NOT NULL,
    "lastEndAt" TIMESTAMP(3) NOT NULL,
    "lastDelayMs" INTEGER NOT NULL DEFAULT 0,
    "blockedUntil" TIMESTAMP(3) NOT NULL,
    "holder" TEXT,
    "heldUntil" TIMESTAMP(3),

    CONSTRAINT "HostClock_pkey" PRIMARY KEY ("host")
);
