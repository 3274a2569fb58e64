/**
 * The shape of a URL inside one action, as the action splitter (action-splitter.ts) compares
 * them: the directory part of its path, at most its first two segments (the last segment is the
 * page itself), with numbers written N, and the sorted names of its query keys.
 * `/statistics/list?page=3` → `/statistics?page`, `/en/news/2024/item` → `/en/news`,
 * `/archive/2019/05/x` → `/archive/N`, `/about` → `/`.
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
  const directory = segments.slice(0, Math.min(2, segments.length - 1)).map((segment) => segment.replace(/\d+/g, "N"));
  const keys = [...new Set([...parsed.searchParams.keys()])].sort();
  return `/${directory.join("/")}${keys.length ? `?${keys.join("&")}` : ""}`;
}
