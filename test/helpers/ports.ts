import fs from "node:fs";
import net from "node:net";

/**
 * Ports for test servers: the one place a test gets one.
 *
 * - A server in the test's own process: {@link listenOnFreePort}. The kernel picks the port while
 *   the server binds it (listen on 0), so no one else can take it first.
 * - A child process (the dashboard, a worker, a demo site) must be told its port before it
 *   listens: {@link freePort}. Between our check and the child's listen, anything else may bind
 *   it. Two things made that likely with "bind 0, read it, close it": the kernel hands the same
 *   ephemeral range to every listen(0) and every outgoing connection's local port, and two
 *   vitest workers picking at once could be handed the same port. So the ports come from below
 *   the ephemeral range (only explicit binds use it), from a block of its own for each vitest
 *   worker (VITEST_POOL_ID), never the same one twice in a process; each is checked free before
 *   it is handed out. What remains is another program binding that very port in that very
 *   moment.
 */

/** In-process servers: listens on 127.0.0.1 (or `host`), a port the kernel picks, and returns it. */
export function listenOnFreePort(server: net.Server, host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.once("error", failed);
    server.listen(0, host, () => {
      server.off("error", failed);
      const address = server.address();
      if (typeof address === "object" && address) resolve(address.port);
      else reject(new Error(`listening on ${host}, but no TCP port to read: ${String(address)}`));
    });
  });
}

/** Lowest port handed out: well above the registered services tests could meet on a machine. */
const LOWEST_PORT = 20_000;
/** Ports per vitest worker. */
const BLOCK_PORTS = 400;

/** The first port of the kernel's ephemeral range (Linux; the IANA range's start elsewhere). */
function ephemeralRangeStart(): number {
  try {
    const [low] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low !== undefined && Number.isInteger(low) && low > LOWEST_PORT + BLOCK_PORTS) return low;
  } catch {
    // not Linux
  }
  return 49_152;
}

/** This worker's block: [first, first + size). Workers beyond the range share blocks round-robin. */
function portBlock(): { first: number; size: number } {
  const blocks = Math.max(1, Math.floor((ephemeralRangeStart() - LOWEST_PORT) / BLOCK_PORTS));
  const worker = Number(process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? 0);
  const index = (Number.isInteger(worker) && worker > 0 ? worker - 1 : 0) % blocks;
  return { first: LOWEST_PORT + index * BLOCK_PORTS, size: BLOCK_PORTS };
}

/** Where in its block this process starts: test runs of other checkouts at the same time start elsewhere. */
let handedOut = process.pid % BLOCK_PORTS;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Child processes: a port on 127.0.0.1 nothing listens on now, for a process that will listen
 * on it (or for a test that needs a port where nothing answers). See the module's comment for
 * the race this narrows.
 */
export async function freePort(): Promise<number> {
  return freePortRange(1);
}

/**
 * `count` consecutive free ports, for a program told a base port that it adds to (`forage bench
 * --port-base`); returns the first. Same race as {@link freePort}.
 */
export async function freePortRange(count: number): Promise<number> {
  const { first, size } = portBlock();
  if (!Number.isInteger(count) || count < 1 || count > size) throw new Error(`a port range of 1 to ${size} ports, not ${count}`);
  for (let tries = 0; tries < size; tries++) {
    const start = first + (handedOut % (size - count + 1));
    handedOut += count;
    const ports = Array.from({ length: count }, (_, i) => start + i);
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return start;
  }
  throw new Error(`no ${count} free consecutive ports in ${first}–${first + size - 1} (this vitest worker's block)`);
}
