import type { Metadata } from "next";
import { getDb, getServerConfig } from "@/app/_server/db";
import { requirePageAdmin } from "@/app/_server/page-user";
import { WorkersPage } from "@/components/workers/WorkersPage";
import { listWorkers, type WorkerListItem } from "@/lib/store/queries/list-workers";
import { describeStorage } from "@/lib/storage/storage-for";

export const metadata: Metadata = { title: "Workers" };
export const dynamic = "force-dynamic";

export default async function Page() {
  await requirePageAdmin("/workers");
  let workers: WorkerListItem[] | undefined;
  let loadError: string | null = null;
  try {
    workers = await listWorkers(await getDb(), { leaseMs: getServerConfig().workerLeaseMs });
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
  return <WorkersPage initialWorkers={workers} loadError={loadError} storage={describeStorage(getServerConfig().storage)} />;
}
