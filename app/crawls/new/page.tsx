import type { Metadata } from "next";
import { requirePageUser } from "@/app/_server/page-user";
import { NewCrawlPage } from "@/components/crawl-form/NewCrawlPage";

export const metadata: Metadata = { title: "New crawl" };
export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { from, recrawl } = await searchParams;
  const recrawling = recrawl === "1";
  await requirePageUser(typeof from === "string" ? `/crawls/new?from=${encodeURIComponent(from)}${recrawling ? "&recrawl=1" : ""}` : "/crawls/new");
  const fromId = typeof from === "string" && /^[1-9]\d{0,9}$/.test(from) ? Number(from) : null;
  return <NewCrawlPage fromId={fromId} recrawl={recrawling} />;
}
