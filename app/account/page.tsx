import type { Metadata } from "next";
import { requirePageUser } from "@/app/_server/page-user";
import { AccountPage } from "@/components/account/AccountPage";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const user = await requirePageUser("/account");
  return <AccountPage email={user.email} role={user.role} />;
}
