-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Worker" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "state" TEXT NOT NULL DEFAULT 'running',
    "storage" TEXT NOT NULL DEFAULT 'local',
    "loadSampledAt" DATETIME,
    "crawlsHeld" INTEGER NOT NULL DEFAULT 0,
    "pagesPerSecond" REAL NOT NULL DEFAULT 0,
    "cpuCores" REAL NOT NULL DEFAULT 0,
    "rssBytes" REAL NOT NULL DEFAULT 0,
    "loopDelayP99Ms" REAL NOT NULL DEFAULT 0
);
INSERT INTO "new_Worker" ("heartbeatAt", "hostname", "id", "pid", "startedAt", "state", "storage") SELECT "heartbeatAt", "hostname", "id", "pid", "startedAt", "state", "storage" FROM "Worker";
DROP TABLE "Worker";
ALTER TABLE "new_Worker" RENAME TO "Worker";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
