import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/app/_server/db";
import { getPageUser } from "@/app/_server/page-user";
import { SignInPage } from "@/components/auth/SignInPage";
import { countUsers } from "@/lib/auth/users";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only paths of this app are followed after sign-in (no open redirect to another site). */
function safeNext(raw: string | string[] | undefined): string {
  return typeof raw === "string" && raw.startsWith("/") && !raw.startsWith("//") && !raw.startsWith("/\\") ? raw : "/";
}

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  if (await getPageUser()) redirect(next);
  const hasUsers = (await countUsers(await getDb())) > 0;
  return <SignInPage next={next} hasUsers={hasUsers} />;
}
