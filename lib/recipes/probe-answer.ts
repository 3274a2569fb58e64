import { firstValue } from "./json-path";
import type { Recipe } from "./recipe-schema";

type Probe = NonNullable<Recipe["recognise"]["probe"]>;

/**
 * Whether a 2xx answer to a recipe's probe confirms the application, and the version it states;
 * `forage detect` and crawls judge probes alike. Never throws.
 */
export function probeVerdict(probe: Probe, body: string): { confirmed: true; version?: string } | { confirmed: false; why: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { confirmed: false, why: "did not answer JSON" };
  }
  if (firstValue(probe.expect, json) === undefined) return { confirmed: false, why: `its JSON has no ${probe.expect.source}` };
  const stated = probe.version ? firstValue(probe.version, json) : undefined;
  return typeof stated === "string" || typeof stated === "number" ? { confirmed: true, version: String(stated) } : { confirmed: true };
}
