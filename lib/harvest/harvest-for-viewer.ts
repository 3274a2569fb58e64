import type { UserView } from "../auth/users";
import type { HarvestView } from "./get-harvest";

/**
 * A harvest as this user may see it: the webhook secret signs the bodies a receiver trusts, so
 * only admins and the harvest's creator see it; anyone else gets `webhookSecret: null` (and
 * `webhookSecretHidden: true`, so a page can say why).
 */
export function harvestForViewer(harvest: HarvestView, viewer: Pick<UserView, "id" | "role">): HarvestView {
  const mayRead = viewer.role === "admin" || (harvest.createdById !== null && harvest.createdById === viewer.id);
  if (mayRead || harvest.webhookSecret === null) return { ...harvest, webhookSecretHidden: false };
  return { ...harvest, webhookSecret: null, webhookSecretHidden: true };
}
