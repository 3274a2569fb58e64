/**
 * The port part of a network-policy entry (`192.168.1.10/32:8080,8443`, `10.0.0.0/8:8000-8099`):
 * single ports and inclusive ranges, 1 to 65535. Kept sorted and merged, so two spellings of
 * one set have one canonical text.
 */

export interface PortRange {
  readonly from: number;
  readonly to: number;
}

/** Why a port list does not parse (the caller names the entry). */
export class PortListError extends Error {
  override name = "PortListError";
}

const PORT = /^\d{1,5}$/;

function parsePort(text: string): number {
  const port = PORT.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new PortListError(`has an invalid port ${JSON.stringify(text)}: expected 1 to 65535`);
  return port;
}

/**
 * Parses `8080,8443` or `8000-8099,9000` into sorted, merged ranges.
 * @throws PortListError
 */
export function parsePortList(text: string): PortRange[] {
  const items = text.split(",").map((item) => item.trim());
  if (items.some((item) => item === "")) throw new PortListError('has an empty port: expected ports after ":", e.g. :80,443 or :8000-8099');
  const ranges = items.map((item): PortRange => {
    const dash = item.indexOf("-");
    if (dash < 0) {
      const port = parsePort(item);
      return { from: port, to: port };
    }
    const from = parsePort(item.slice(0, dash).trim());
    const to = parsePort(item.slice(dash + 1).trim());
    if (from > to) throw new PortListError(`has a port range ${JSON.stringify(item)} that ends before it starts`);
    return { from, to };
  });
  return mergePortRanges(ranges);
}

/** Sorted by start, overlapping and adjacent ranges joined. */
export function mergePortRanges(ranges: readonly PortRange[]): PortRange[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const merged: PortRange[] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range.from <= last.to + 1) merged[merged.length - 1] = { from: last.from, to: Math.max(last.to, range.to) };
    else merged.push(range);
  }
  return merged;
}

/** `8080,8443`, `8000-8099`. */
export function formatPortList(ranges: readonly PortRange[]): string {
  return ranges.map((range) => (range.from === range.to ? String(range.from) : `${range.from}-${range.to}`)).join(",");
}

export function portAllowed(ranges: readonly PortRange[], port: number): boolean {
  return ranges.some((range) => port >= range.from && port <= range.to);
}
