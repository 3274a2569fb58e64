/** The named shapes that are points of the family: shape name → parameters for (seed, URL count). */
import type { FamilyParams } from "../params";
import { codeForgeParams } from "./code-forge";
import { deepSparseParams } from "./deep-sparse";
import { documentationSiteParams } from "./documentation-site";
import { ministryPortalParams } from "./ministry-portal";
import { newsHeavyParams } from "./news-heavy";
import { openDataPortalParams } from "./open-data-portal";
import { researchRepositoryParams } from "./research-repository";
import { wikiParams } from "./wiki";

export const NAMED_FAMILY_POINTS = {
  "ministry-portal": ministryPortalParams,
  "open-data-portal": openDataPortalParams,
  "deep-sparse": deepSparseParams,
  "news-heavy": newsHeavyParams,
  "research-repository": researchRepositoryParams,
  "documentation-site": documentationSiteParams,
  wiki: wikiParams,
  "code-forge": codeForgeParams,
} as const satisfies Record<string, (seed: number, urlCount: number) => FamilyParams>;
