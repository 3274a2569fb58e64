"use client";

import { useState } from "react";

/**
 * Cursor paging: the API gives a `nextCursor`; going back needs the
 * cursors already visited, kept here as a stack. Page 1 has cursor null.
 */
export function useCursorPager() {
  const [stack, setStack] = useState<string[]>([]);
  return {
    cursor: stack.at(-1) ?? null,
    pageNumber: stack.length + 1,
    next: (cursor: string) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => s.slice(0, -1)),
    reset: () => setStack([]),
  };
}

export function Pager({
  label,
  pageNumber,
  nextCursor,
  onNext,
  onPrevious,
  busy,
  previousLabel = "← Newer",
  nextLabel = "Older →",
}: {
  label: string;
  previousLabel?: string;
  nextLabel?: string;
  pageNumber: number;
  nextCursor: string | null;
  onNext: (cursor: string) => void;
  onPrevious: () => void;
  busy?: boolean;
}) {
  if (pageNumber === 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button button-small" onClick={onPrevious} disabled={pageNumber === 1 || busy}>
        {previousLabel}
      </button>
      <span className="pager-page" aria-live="polite">
        Page {pageNumber}
      </span>
      <button type="button" className="button button-small" onClick={() => nextCursor && onNext(nextCursor)} disabled={!nextCursor || busy}>
        {nextLabel}
      </button>
    </nav>
  );
}
