import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/app/_server/db";
import { getPageUser } from "@/app/_server/page-user";
import { SignInPage } from "@/components/auth/SignInPage";
import { countUsers } from "@/lib/auth/users";
import { sameOriginPath } from "@/lib/api/same-origin-path";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // Only paths of this app are followed after sign-in (no open redirect to another site).
  const next = sameOriginPath((await searchParams).next);
  if (await getPageUser()) redirect(next);
  const hasUsers = (await countUsers(await getDb())) > 0;
  return <SignInPage next={next} hasUsers={hasUsers} />;
}
