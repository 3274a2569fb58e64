import type { RequestRow } from "@/components/hooks/api-types";
import { mimeLabel } from "@/components/ui/mime";

/**
 * Why a row is, or is not, a target when its kind says otherwise: a link typed as a target that
 * answered a page (not kept), or a page kept because its type is one the crawl wants.
 */
export function targetNote(request: Pick<RequestRow, "kind" | "isTarget" | "outcome" | "mime">): string | null {
  if (request.outcome !== "ok" || !request.mime) return null;
  const type = mimeLabel(request.mime);
  if (request.kind === "target" && !request.isTarget) return `Typed as a target from its link, but the answer was ${type}: not kept`;
  if (request.isTarget && (request.kind === "page" || /html/i.test(request.mime))) return `Kept: ${type} is one of this crawl's target types`;
  return null;
}
