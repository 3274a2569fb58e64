-- AlterTable
ALTER TABLE "Target" ADD COLUMN "recordPage" TEXT;
ALTER TABLE "Target" ADD COLUMN "recordTitle" TEXT;
