import type { Metadata } from "next";
import { getDb } from "@/app/_server/db";
import { SetupPage } from "@/components/auth/SetupPage";
import { setupLinkProblem } from "@/lib/auth/setup-link";

export const metadata: Metadata = { title: "Set up Forage" };
export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const secret = typeof token === "string" ? token : "";
  return <SetupPage token={secret} problem={await setupLinkProblem(await getDb(), secret)} />;
}
