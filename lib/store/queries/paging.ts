/** The page's rows and the cursor of the next page (null on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Cuts a `limit + 1` fetch into a page: the extra row only tells whether another page exists,
 * so the last page never ends with a cursor that leads to an empty page.
 */
export function toPage<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? String(last.id) : null };
}
