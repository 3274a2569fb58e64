// Preloaded (`node --import`) into a child process under test: ends it with exit code 99 as soon
// as its resident memory passes FORAGE_TEST_RSS_CAP_MIB, so a test of a memory bound can never
// take the machine down, and writes the peak it saw to FORAGE_TEST_RSS_REPORT at exit.
import fs from "node:fs";

const MIB = 1024 * 1024;
const cap = Number(process.env.FORAGE_TEST_RSS_CAP_MIB) * MIB;
const report = process.env.FORAGE_TEST_RSS_REPORT;
let peak = 0;

function check() {
  const rss = process.memoryUsage.rss();
  peak = Math.max(peak, rss);
  if (cap > 0 && rss > cap) {
    process.stderr.write(`rss-watchdog: ${Math.round(rss / MIB)} MiB resident, over the ${cap / MIB} MiB cap\n`);
    process.exit(99);
  }
}

setInterval(check, 10).unref();
process.on("exit", () => {
  check();
  if (report) fs.writeFileSync(report, String(Math.round(peak / MIB)));
});
