import { getDb, getServerConfig } from "@/app/_server/db";
import { requirePageUser } from "@/app/_server/page-user";
import { CrawlsPage } from "@/components/crawls/CrawlsPage";
import { listCrawls, type CrawlListItem } from "@/lib/store";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  await requirePageUser("/");
  let crawls: CrawlListItem[] | undefined;
  let loadError: string | null = null;
  try {
    crawls = await listCrawls(await getDb());
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
  return <CrawlsPage initialCrawls={crawls} loadError={loadError} demoPort={getServerConfig().demoPort} />;
}
