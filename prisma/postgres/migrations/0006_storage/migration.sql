-- AlterTable
ALTER TABLE "Worker" ADD COLUMN     "storage" TEXT NOT NULL DEFAULT 'local';
