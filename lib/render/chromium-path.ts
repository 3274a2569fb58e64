import { accessSync, constants } from "node:fs";

/** Where Debian, Ubuntu and most distributions install Chromium (or Chrome), in the order tried. */
const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome"];

/** What a crawl that needs rendering tells the user when no browser is installed. */
export const INSTALL_CHROMIUM_HINT = "install Chromium (Debian/Ubuntu: apt-get install chromium) or set FORAGE_CHROMIUM_PATH";

/**
 * The Chromium executable to render pages with: `configured` (FORAGE_CHROMIUM_PATH) when given,
 * else the first installed candidate; null when none can be executed.
 */
export function findChromium(configured: string | null, candidates: readonly string[] = CANDIDATES): string | null {
  for (const path of configured ? [configured] : candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not there, or not executable: the next candidate
    }
  }
  return null;
}
