-- AlterTable
ALTER TABLE "Crawl" ADD COLUMN     "renderedPages" INTEGER NOT NULL DEFAULT 0;
