"use client";

import { formatDateTime, formatDateTimeIn, formatRelative } from "./format";

/**
 * A date: in the viewer's time zone, or in `timeZone` with the zone named (a harvest's times read
 * in the harvest's zone, as its schedule preview does). The server renders in its own zone, so the
 * text may differ after hydration: that difference is expected and silenced on this element only.
 */
export function DateTime({ iso, relative = false, timeZone }: { iso: string; relative?: boolean; timeZone?: string }) {
  const text = relative ? formatRelative(iso) : timeZone ? formatDateTimeIn(iso, timeZone) : formatDateTime(iso);
  return (
    <time dateTime={iso} title={formatDateTimeIn(iso, timeZone)} suppressHydrationWarning>
      {text}
    </time>
  );
}
