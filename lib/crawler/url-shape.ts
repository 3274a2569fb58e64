/**
 * The shape of a URL inside one action, as the action splitter (action-splitter.ts) compares
 * them: its first path segments with numbers written N, and the sorted names of its query keys.
 * The last segment names the page itself, so it counts only where it names a listing, i.e. when
 * the URL has a query; at most two segments count.
 * `/press-releases?page=3` → `/press-releases?page`, `/statistics/list?page=3` → `/statistics/list?page`,
 * `/en/news/2024/item` → `/en/news`, `/archive/2019/05/x` → `/archive/N`, `/about` → `/`.
 * Links of one tag path (a pagination bar shared by three sections) that lead into different
 * sections have different shapes; the pages of one listing have one.
 */
export function urlShape(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "?";
  }
  const segments = parsed.pathname.split("/").filter(Boolean);
  const keys = [...new Set([...parsed.searchParams.keys()])].sort();
  const counted = Math.min(2, keys.length > 0 ? segments.length : segments.length - 1);
  const directory = segments.slice(0, counted).map((segment) => segment.replace(/\d+/g, "N"));
  return `/${directory.join("/")}${keys.length ? `?${keys.join("&")}` : ""}`;
}
