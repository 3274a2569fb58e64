-- AlterTable
ALTER TABLE "Target" ADD COLUMN     "detectedMime" TEXT,
ADD COLUMN     "typeMatch" BOOLEAN;
