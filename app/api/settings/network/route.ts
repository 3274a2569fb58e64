import { getServerConfig } from "@/app/_server/db";
import { guarded } from "@/app/_server/guarded";
import { parseJsonBody } from "@/lib/api/body";
import { jsonResponse } from "@/lib/api/responses";
import { METADATA_ADDRESSES } from "@/lib/crawler/fetch/address-ranges";
import { getNetworkPolicy, saveNetworkPolicy } from "@/lib/store";
import { z } from "zod";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function view(policy: Awaited<ReturnType<typeof getNetworkPolicy>>): Promise<Response> {
  return jsonResponse({
    privateNetworks: policy.privateNetworks,
    updatedAt: policy.updatedAt,
    // This dashboard's FORAGE_PRIVATE_NETWORKS (workers read their own; `npm start` gives all three the same).
    fromEnvironment: getServerConfig().privateNetworks,
    alwaysRefused: METADATA_ADDRESSES,
  });
}

/** The private networks crawls may reach (admins only). */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => view(await getNetworkPolicy(db)), { admin: true });
}

const policyBody = z.strictObject({ privateNetworks: z.unknown() });

/** Replaces the admin's list; crawls use it from their next start or resume (admins only). */
export async function PUT(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => view(await saveNetworkPolicy(db, (await parseJsonBody(request, policyBody)).privateNetworks)), { admin: true });
}
