-- CreateTable
CREATE TABLE "User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "passwordHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "lastSeenAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ServerSetting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
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
    CONSTRAINT "Crawl_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Crawl" ("activeMs", "config", "createdAt", "errorsCount", "finishedAt", "frontierSize", "getCount", "groupsCount", "headCount", "id", "leaseExpiresAt", "name", "nonTargetBytes", "pendingControl", "replayOfCrawlId", "requestsCount", "robotsSkips", "rootUrl", "seed", "startedAt", "status", "stopDetail", "stopReason", "strategy", "targetBytes", "targetsCount", "updatedAt", "workerId") SELECT "activeMs", "config", "createdAt", "errorsCount", "finishedAt", "frontierSize", "getCount", "groupsCount", "headCount", "id", "leaseExpiresAt", "name", "nonTargetBytes", "pendingControl", "replayOfCrawlId", "requestsCount", "robotsSkips", "rootUrl", "seed", "startedAt", "status", "stopDetail", "stopReason", "strategy", "targetBytes", "targetsCount", "updatedAt", "workerId" FROM "Crawl";
DROP TABLE "Crawl";
ALTER TABLE "new_Crawl" RENAME TO "Crawl";
CREATE INDEX "Crawl_status_createdAt_idx" ON "Crawl"("status", "createdAt");
CREATE INDEX "Crawl_createdAt_idx" ON "Crawl"("createdAt");
CREATE INDEX "Crawl_status_leaseExpiresAt_idx" ON "Crawl"("status", "leaseExpiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");
