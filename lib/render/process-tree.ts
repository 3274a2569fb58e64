import { readdirSync, readFileSync } from "node:fs";

/**
 * What a process and everything it started costs, read from Linux's /proc: the browser's renderer,
 * GPU and utility processes are its descendants, so a pool's memory and CPU are its browser's tree.
 * Elsewhere (no /proc) every figure is 0.
 */

/** /proc reports CPU times in USER_HZ ticks, 100 a second on Linux's user-space ABI. */
const TICKS_PER_SECOND = 100;

interface ProcessFigures {
  pid: number;
  parent: number;
  /** utime + stime + cutime + cstime: its own CPU and that of its children it has waited for (exited ones). */
  cpuTicks: number;
}

/** One process's line of /proc/<pid>/stat; the name in parentheses may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcessFigures | null {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  // Fields after the name start with field 3 (state): field n is rest[n - 3].
  const rest = text.slice(close + 2).split(" ");
  const field = (n: number) => Number(rest[n - 3]);
  const figures = { pid, parent: field(4), cpuTicks: field(14) + field(15) + field(16) + field(17) };
  return Object.values(figures).every(Number.isFinite) ? figures : null;
}

function allProcesses(): ProcessFigures[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: ProcessFigures[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const figures = parseProcStat(readFileSync(`/proc/${entry}/stat`, "utf8"));
      if (figures) out.push(figures);
    } catch {
      // ended between the listing and the read
    }
  }
  return out;
}

/** `root` and its descendants, as found now. */
function processTree(root: number): ProcessFigures[] {
  const processes = allProcesses();
  const children = new Map<number, ProcessFigures[]>();
  for (const figures of processes) {
    const siblings = children.get(figures.parent);
    if (siblings) siblings.push(figures);
    else children.set(figures.parent, [figures]);
  }
  const rootFigures = processes.find((figures) => figures.pid === root);
  if (!rootFigures) return [];
  const tree = [rootFigures];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!.pid) ?? []));
  return tree;
}

/** Resident memory of `root`'s tree in bytes (pages shared between its processes count once per process). */
export function treeRssBytes(root: number): number {
  // VmRSS is in kB whatever the page size; kernel threads have none.
  return sumOverTree(root, "status", /^VmRSS:\s+(\d+)\s+kB/m);
}

/**
 * Proportional memory of `root`'s tree in bytes (PSS: a page shared by n processes counts 1/n in
 * each), what the tree really holds; RSS counts Chromium's shared code once per process. Slower
 * to read than RSS (the kernel walks each process's page tables), so for benchmarks.
 */
export function treePssBytes(root: number): number {
  // No smaps_rollup before Linux 4.14: those processes count nothing.
  return sumOverTree(root, "smaps_rollup", /^Pss:\s+(\d+)\s+kB/m);
}

/** Σ over `root`'s tree of the kB figure `field` finds in `/proc/<pid>/<file>`, in bytes; a process that ended meanwhile counts nothing. */
function sumOverTree(root: number, file: string, field: RegExp): number {
  let bytes = 0;
  for (const { pid } of processTree(root)) {
    try {
      const match = field.exec(readFileSync(`/proc/${pid}/${file}`, "utf8"));
      if (match) bytes += Number(match[1]) * 1024;
    } catch {
      // ended meanwhile
    }
  }
  return bytes;
}

/** CPU time (user + system) of `root`'s tree in ms, including its children that have ended. */
export function treeCpuMs(root: number): number {
  return (processTree(root).reduce((sum, figures) => sum + figures.cpuTicks, 0) * 1000) / TICKS_PER_SECOND;
}

/** The child of `parent` whose command line holds `marker` (how a launched browser is found: Playwright does not tell its pid). */
export function childWithArgument(parent: number, marker: string): number | null {
  for (const figures of allProcesses()) {
    if (figures.parent !== parent) continue;
    try {
      const args = readFileSync(`/proc/${figures.pid}/cmdline`, "utf8").split("\0");
      if (args.includes(marker)) return figures.pid;
    } catch {
      // ended meanwhile
    }
  }
  return null;
}
