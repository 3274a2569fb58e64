-- AlterTable
ALTER TABLE "Target" ADD COLUMN "detectedMime" TEXT;
ALTER TABLE "Target" ADD COLUMN "typeMatch" BOOLEAN;
