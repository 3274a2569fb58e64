"use client";

import { formatDateTime, formatRelative } from "./format";

/**
 * A date in the viewer's time zone. The server renders in its own zone, so the text may differ
 * after hydration: that difference is expected and silenced on this element only.
 */
export function DateTime({ iso, relative = false }: { iso: string; relative?: boolean }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)} suppressHydrationWarning>
      {relative ? formatRelative(iso) : formatDateTime(iso)}
    </time>
  );
}
