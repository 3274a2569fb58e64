import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { childWithArgument, parseProcStat, treeCpuMs, treeRssBytes } from "../../lib/render/process-tree";
import { pollUntil } from "../helpers/poll-until";

describe("parseProcStat", () => {
  it("reads pid, parent and CPU ticks past a name with spaces and parentheses", () => {
    const fields = ["S", "41", ...Array.from({ length: 9 }, () => "0"), "120", "30", "7", "3", ...Array.from({ length: 30 }, () => "0")];
    expect(parseProcStat(`1234 (Web Content (x)) ${fields.join(" ")}`)).toEqual({ pid: 1234, parent: 41, cpuTicks: 160 });
    expect(parseProcStat("garbage")).toBeNull();
  });
});

describe("process trees in /proc", () => {
  it("find a child by an argument, and count its CPU and memory in the parent's tree", async () => {
    const marker = `--render-process-tree-test=${process.pid}`;
    // A child that burns 300 ms of CPU (however long that takes on a busy machine), then idles.
    const burn = "const start = process.cpuUsage(); while (process.cpuUsage(start).user < 300000); setInterval(() => {}, 1000);";
    const child = spawn(process.execPath, ["-e", burn, "--", marker], { stdio: "ignore" });
    try {
      const pid = await pollUntil("the child in /proc", () => childWithArgument(process.pid, marker), (found) => found !== null, { timeoutMs: 5_000, pollMs: 20 });
      expect(pid).toBe(child.pid);
      const childCpu = await pollUntil("the child's CPU time", () => treeCpuMs(pid!), (ms) => ms >= 200, { timeoutMs: 20_000, pollMs: 50 });
      expect(treeCpuMs(process.pid)).toBeGreaterThanOrEqual(childCpu);
      expect(treeRssBytes(pid!)).toBeGreaterThan(1024 * 1024);
      expect(treeRssBytes(process.pid)).toBeGreaterThan(treeRssBytes(pid!));
    } finally {
      child.kill("SIGKILL");
    }
    expect(childWithArgument(process.pid, "--no-such-argument")).toBeNull();
    expect(treeCpuMs(2 ** 22 + 1)).toBe(0);
  });
});
