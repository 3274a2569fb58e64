/** Site sizes. */
import type { SiteSize } from "./types";

/** Approximate finite URL counts of the named sizes. */
export const SITE_SIZES = { tiny: 300, small: 2_000, medium: 10_000, large: 40_000 } as const;

/** Finite URL count a size asks for (numbers are clamped to 100 – 200 000). */
export function sizeToUrlCount(size: SiteSize): number {
  if (typeof size === "number") {
    if (!Number.isFinite(size)) throw new RangeError(`site size must be a finite number, got ${size}`);
    return Math.min(200_000, Math.max(100, Math.round(size)));
  }
  const n = SITE_SIZES[size];
  if (n === undefined) throw new RangeError(`unknown site size "${String(size)}" (tiny, small, medium, large or a number)`);
  return n;
}

