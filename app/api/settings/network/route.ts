import { getServerConfig } from "@/app/_server/db";
import { guarded } from "@/app/_server/guarded";
import { parseJsonBody } from "@/lib/api/body";
import { clientAddress } from "@/lib/api/client-address";
import { jsonResponse } from "@/lib/api/responses";
import { recordAudit } from "@/lib/auth/audit-log";
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

/**
 * Replaces the admin's list (entries are CIDRs, optionally with ports: `192.168.1.10/32:8080`);
 * crawls use it from their next start or resume; a change goes into the audit log with the
 * list before and after (admins only).
 */
export async function PUT(request: Request): Promise<Response> {
  return guarded(
    request,
    async (principal, db) => {
      const body = await parseJsonBody(request, policyBody);
      // An unreadable saved value is what this save repairs: its "before" is null.
      const before = await getNetworkPolicy(db).then((policy) => policy.privateNetworks, () => null);
      const saved = await saveNetworkPolicy(db, body.privateNetworks);
      if (JSON.stringify(before) !== JSON.stringify(saved.privateNetworks)) {
        await recordAudit(db, { action: "network-policy-changed", actor: principal.user, address: clientAddress(request), details: { before, after: saved.privateNetworks } });
      }
      return view(saved);
    },
    { admin: true },
  );
}
