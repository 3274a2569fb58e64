import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/app/_server/db";
import { requirePageUser } from "@/app/_server/page-user";
import { NotFoundError } from "@/lib/errors";
import { getHarvest, harvestForViewer } from "@/lib/harvest";
import { HarvestPage } from "@/components/harvests/HarvestPage";

export const dynamic = "force-dynamic";

function parseHarvestId(raw: string): number | null {
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2 ** 31 - 1 ? Number(raw) : null;
}

const findHarvest = cache(async (id: number) => {
  try {
    return await getHarvest(await getDb(), id);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  await requirePageUser();
  const id = parseHarvestId((await params).id);
  const harvest = id === null ? null : await findHarvest(id);
  return { title: harvest ? `${harvest.name} (harvest #${harvest.id})` : "Harvest not found" };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const user = await requirePageUser(`/harvests/${encodeURIComponent(raw)}`);
  const id = parseHarvestId(raw);
  const harvest = id === null ? null : await findHarvest(id);
  if (id === null || !harvest) notFound();
  return <HarvestPage id={id} initialHarvest={harvestForViewer(harvest, user)} />;
}
