/**
 * The network policy checked when a crawl or a harvest is created, so that a URL the worker
 * would refuse is a 400 naming the field and the policy, not a crawl that fails later with a
 * borrowed reason. The worker still checks every connection (network-safety.ts): this is the
 * early answer, not the guard.
 *
 * Host names are not resolved here. DNS can answer differently when the crawl runs (and on every
 * redirect), so only the connection-time check is authoritative; resolving at creation would also
 * let any member learn which internal names exist. Names that always mean this machine
 * (`localhost`, `*.localhost`, RFC 6761) are judged as the loopback address they are.
 */
import { describeRange } from "../../crawler/fetch/address-ranges";
import { assertFetchableUrl, urlPort } from "../../crawler/fetch/network-safety";
import { NetworkPolicy } from "../../crawler/fetch/network-policy";
import { PrivateNetworkRefusedError } from "../../crawler/fetch/errors";

export interface CreationNetworkPolicy {
  /** The server's private networks (FORAGE_PRIVATE_NETWORKS ∪ the admin's list in Settings). */
  privateNetworks: readonly string[];
  /** A crawl stored by the local CLI with `allowPrivateNetwork`. @default false */
  allowAllPrivate?: boolean;
}

/** What the user can do about a private address, in the words of the place they would do it. */
export const ALLOW_PRIVATE_HINT = "an admin can allow private networks in Settings";

const LOCALHOST = /^localhost\.?$|\.localhost\.?$/i;

/**
 * Why the policy refuses `url` (a field message: "is a private or reserved address …"), or null
 * when the worker may try it. Malformed URLs are the settings schema's business: null here.
 */
export function networkPolicyRefusal(url: string, policy: CreationNetworkPolicy, allowHint: string = ALLOW_PRIVATE_HINT): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const rules = new NetworkPolicy({ privateNetworks: policy.privateNetworks, allowAllPrivate: policy.allowAllPrivate ?? false });
  const port = urlPort(parsed);
  let refusal: PrivateNetworkRefusedError | null = null;
  if (LOCALHOST.test(parsed.hostname)) {
    refusal = rules.check(parsed.hostname, "127.0.0.1", port);
  } else {
    try {
      assertFetchableUrl(parsed, rules);
    } catch (error) {
      if (!(error instanceof PrivateNetworkRefusedError)) return null;
      refusal = error;
    }
  }
  if (!refusal) return null;
  if (refusal.range === "cloudMetadata") return `is a cloud-metadata address (${refusal.address}): no crawl or webhook may reach it, whatever the network policy`;
  const what = refusal.host === refusal.address ? refusal.address : `${refusal.host}, ${refusal.address}`;
  return `is a private or reserved address (${what}: ${describeRange(refusal.range)}); ${allowHint}`;
}
