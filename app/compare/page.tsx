import type { Metadata } from "next";
import { requirePageUser } from "@/app/_server/page-user";
import { ComparePage } from "@/components/compare/ComparePage";

export const metadata: Metadata = { title: "Compare crawls" };
export const dynamic = "force-dynamic";

/** `/compare?ids=12,13,14`: the ids go to the API as typed, which says what is wrong with them. */
export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).ids;
  const ids = (Array.isArray(raw) ? raw.join(",") : (raw ?? "")).slice(0, 200);
  await requirePageUser(`/compare?ids=${encodeURIComponent(ids)}`);
  return <ComparePage ids={ids} />;
}
