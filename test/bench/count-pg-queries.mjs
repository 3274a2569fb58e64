// Preloaded into a benched worker (`node --import ./test/bench/count-pg-queries.mjs …`): counts
// the statements the process sends to PostgreSQL, one round trip each (node-postgres sends one
// query at a time per connection, and every pooled or transaction query goes through
// `Client.prototype.query`). The count is written to FORAGE_BENCH_QUERY_COUNT_FILE every 100 ms
// and at exit, for the bench to read from the outside.
import fs from "node:fs";
import { createRequire } from "node:module";

const file = process.env.FORAGE_BENCH_QUERY_COUNT_FILE;
if (file) {
  const pg = createRequire(import.meta.url)("pg");
  const query = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function countedQuery(...args) {
    count += 1;
    return query.apply(this, args);
  };
  const write = () => fs.writeFileSync(file, String(count));
  write();
  setInterval(write, 100).unref();
  process.on("exit", write);
}
