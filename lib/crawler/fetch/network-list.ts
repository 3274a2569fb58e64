/**
 * Splits a typed list of network-policy entries (FORAGE_PRIVATE_NETWORKS, the Settings field)
 * into entries. Entries are separated by commas or white space; an entry's ports are also
 * separated by commas (`192.168.1.10/32:8080,8443`), so an item that is only a port or a port
 * range (`8443`, `9000-9010`) continues the port list of the entry before it. A bare number is
 * never an address (IPv4 needs four parts, IPv6 colons), so the reading is unambiguous.
 * No dependencies: the Settings form imports it.
 */
/** `10.0.0.0/8:80,…` or `[fd00::/8]:443,…` (an unbracketed IPv6 entry has no ports). */
const WITH_PORTS = /^(\[[^\]]*\]|[^:[\]]*):[\d,-]+$/;

export function splitNetworkList(text: string): string[] {
  const entries: string[] = [];
  for (const item of text.split(/[\s,]+/)) {
    if (item === "") continue;
    const previous = entries[entries.length - 1];
    if (/^\d+(-\d+)?$/.test(item) && previous !== undefined && WITH_PORTS.test(previous)) {
      entries[entries.length - 1] = `${previous},${item}`;
    } else entries.push(item);
  }
  return entries;
}
