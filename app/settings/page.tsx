import type { Metadata } from "next";
import { requirePageAdmin } from "@/app/_server/page-user";
import { SettingsPage } from "@/components/settings/SettingsPage";

export const metadata: Metadata = { title: "Settings" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const admin = await requirePageAdmin("/settings");
  return <SettingsPage currentEmail={admin.email} />;
}
