-- CreateTable
CREATE TABLE "HostClock" (
    "host" TEXT NOT NULL PRIMARY KEY,
    "lastEndAt" DATETIME NOT NULL,
    "lastDelayMs" INTEGER NOT NULL DEFAULT 0,
    "blockedUntil" DATETIME NOT NULL,
    "holder" TEXT,
    "heldUntil" DATETIME
);
