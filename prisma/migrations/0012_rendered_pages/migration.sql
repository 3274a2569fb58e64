-- Pages rendered in a browser (crawl setting `render`).
ALTER TABLE "Crawl" ADD COLUMN "renderedPages" INTEGER NOT NULL DEFAULT 0;
