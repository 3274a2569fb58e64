import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../lib/errors";
import { parseQuery } from "../../lib/api/query";
import { eventsQuery, metricsQuery } from "../../lib/api/query-schemas";

describe("query numbers address 32-bit Int columns", () => {
  const parse = (search: string, schema: Parameters<typeof parseQuery>[1]) => parseQuery(new Request(`http://h/x?${search}`), schema);

  it("refuses a cursor or an `after` past 2^31 - 1 instead of rounding it or handing Prisma an out-of-range Int (found by the fuzz target)", () => {
    expect(parse("cursor=2147483647", eventsQuery)).toMatchObject({ cursor: 2147483647 });
    expect(() => parse("cursor=2147483648", eventsQuery)).toThrow(InvalidRequestError);
    expect(() => parse("cursor=9007199254740993", eventsQuery)).toThrow(InvalidRequestError);
    expect(() => parse("after=9007199254740991", metricsQuery)).toThrow(InvalidRequestError);
    expect(parse("after=-1", metricsQuery)).toMatchObject({ after: -1 });
  });
});
