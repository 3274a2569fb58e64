import type { Metadata } from "next";
import { NewCrawlPage } from "@/components/crawl-form/NewCrawlPage";

export const metadata: Metadata = { title: "New crawl" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { from } = await searchParams;
  const fromId = typeof from === "string" && /^[1-9]\d{0,9}$/.test(from) ? Number(from) : null;
  return <NewCrawlPage fromId={fromId} />;
}
