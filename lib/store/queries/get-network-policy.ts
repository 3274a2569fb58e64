import type { Db } from "../prisma-client";

/** ServerSetting key of the admin's network policy; its value is `{"privateNetworks":["10.0.0.0/8",…]}`. */
export const NETWORK_POLICY_KEY = "network-policy";

export interface NetworkPolicyView {
  /** The CIDRs an admin saved (canonical texts), in the order saved. */
  privateNetworks: string[];
  /** When they were last saved; null when never. */
  updatedAt: Date | null;
}

/**
 * The private networks an admin allowed in Settings → Network (FORAGE_PRIVATE_NETWORKS is
 * not included: it is the process's, `ForageConfig.privateNetworks`). A crawl may reach the
 * union of both, read when it starts or resumes.
 * @throws Error when the stored value is not what `saveNetworkPolicy` writes (never guessed at:
 *   a crawl must not run on a policy nobody saved).
 */
export async function getNetworkPolicy(db: Db): Promise<NetworkPolicyView> {
  const row = await db.serverSetting.findUnique({ where: { key: NETWORK_POLICY_KEY } });
  if (!row) return { privateNetworks: [], updatedAt: null };
  let value: unknown;
  try {
    value = JSON.parse(row.value);
  } catch {
    value = null;
  }
  const list = (value as { privateNetworks?: unknown } | null)?.privateNetworks;
  if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) {
    throw new Error(`The saved network policy (server setting "${NETWORK_POLICY_KEY}") is unreadable: save it again in Settings → Network`);
  }
  return { privateNetworks: list, updatedAt: row.updatedAt };
}

/** The server's whole list for a crawl: FORAGE_PRIVATE_NETWORKS, then the admin's CIDRs, duplicates removed. */
export async function getServerPrivateNetworks(db: Db, fromEnvironment: readonly string[]): Promise<string[]> {
  const saved = await getNetworkPolicy(db);
  return [...new Set([...fromEnvironment, ...saved.privateNetworks])];
}
