import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/app/_server/db";
import { requirePageUser } from "@/app/_server/page-user";
import { NotFoundError } from "@/lib/errors";
import { getCrawl } from "@/lib/store";
import { crawlForViewer } from "@/lib/store/queries/crawl-for-viewer";
import { CockpitPage } from "@/components/cockpit/CockpitPage";
import { hostOf } from "@/components/ui/format";

export const dynamic = "force-dynamic";

/** Positive integers only, as the API's routes accept them ("12", not "012" or "1e3"). */
function parseCrawlId(raw: string): number | null {
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2 ** 31 - 1 ? Number(raw) : null;
}

/** Existence and the title are read here (as GET /api/crawls/:id would); the cockpit itself loads and polls through the API. */
const findCrawl = cache(async (id: number) => {
  try {
    return await getCrawl(await getDb(), id);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  await requirePageUser();
  const id = parseCrawlId((await params).id);
  const crawl = id === null ? null : await findCrawl(id);
  if (!crawl) return { title: "Crawl not found" };
  return { title: `${crawl.name ?? hostOf(crawl.rootUrl)} (crawl #${crawl.id})` };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const user = await requirePageUser(`/crawls/${encodeURIComponent(raw)}`);
  const id = parseCrawlId(raw);
  const crawl = id === null ? null : await findCrawl(id);
  if (id === null || !crawl) notFound();
  return <CockpitPage id={id} initialCrawl={crawlForViewer(crawl, user)} />;
}
