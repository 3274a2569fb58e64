-- AlterTable
ALTER TABLE "Target" ADD COLUMN     "recordPage" TEXT,
ADD COLUMN     "recordTitle" TEXT;
