import { InvalidRequestError } from "../../errors";
import { CidrError, parseNetworkEntry } from "../../crawler/fetch/network-policy";
import type { Db } from "../prisma-client";
import { NETWORK_POLICY_KEY, type NetworkPolicyView } from "../queries/get-network-policy";

/** More would make every connection check a long scan, and no network needs it. */
const MAX_NETWORKS = 256;

/**
 * Replaces the admin's list of private networks crawls may reach (Settings → Network).
 * Each entry is a CIDR (`10.0.0.0/8`, `fd00::/8`) or one address, open on every port, or
 * followed by the only ports it opens (`192.168.1.10/32:8080,8443`, `[fd00::/8]:443`,
 * `10.0.0.0/8:8000-8099`); they are stored in canonical form (host bits cleared, ports sorted
 * and merged), duplicates removed. The JSON keeps its shape, a list of strings, so a list
 * saved before ports existed reads the same (any port). Crawls pick the new list up when they start
 * or resume. Cloud-metadata addresses stay refused whatever the list covers.
 * @throws InvalidRequestError (400) with `privateNetworks` or `privateNetworks.N` naming the bad entry.
 */
export async function saveNetworkPolicy(db: Db, cidrs: unknown): Promise<NetworkPolicyView> {
  const privateNetworks = parseNetworks(cidrs);
  const value = JSON.stringify({ privateNetworks });
  const row = await db.serverSetting.upsert({
    where: { key: NETWORK_POLICY_KEY },
    create: { key: NETWORK_POLICY_KEY, value },
    update: { value },
  });
  return { privateNetworks, updatedAt: row.updatedAt };
}

function parseNetworks(cidrs: unknown): string[] {
  const invalid = (fields: Record<string, string>) => new InvalidRequestError(fields, "Invalid network policy");
  if (!Array.isArray(cidrs)) throw invalid({ privateNetworks: "must be a list of CIDRs, e.g. [\"10.0.0.0/8\"]" });
  if (cidrs.length > MAX_NETWORKS) throw invalid({ privateNetworks: `must hold at most ${MAX_NETWORKS} CIDRs` });
  const fields: Record<string, string> = {};
  const texts: string[] = [];
  cidrs.forEach((item, index) => {
    if (typeof item !== "string") {
      fields[`privateNetworks.${index}`] = "must be a string such as 10.0.0.0/8";
      return;
    }
    try {
      texts.push(parseNetworkEntry(item).text);
    } catch (error) {
      if (!(error instanceof CidrError)) throw error;
      fields[`privateNetworks.${index}`] = error.message;
    }
  });
  if (Object.keys(fields).length > 0) throw invalid(fields);
  return [...new Set(texts)];
}
