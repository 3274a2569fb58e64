/**
 * The operator log (lib/log) never writes a secret: fields named like credentials, at any depth
 * and in child bindings, are replaced; token-like text is scrubbed from messages and values.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { crawlLog, createLogger, harvestLog, requestLog } from "../../lib/log/logger";
import { REDACTED, redactSecrets, scrubSecretText } from "../../lib/log/redact";

function capture(level: "info" | "debug" | "silent" = "info", format: "json" | "pretty" = "json") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const log = createLogger({ name: "forage-test", level, format, destination: destination as never });
  return { log, lines, json: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const TOKEN = `forage_${"Q".repeat(43)}`;
const SESSION = "S3ss10nS3cr3t-abcdefghijklmnopqrstuvwxyz0123";

describe("redaction", () => {
  it("replaces fields named like credentials, at any depth, keeping the others", () => {
    const out = redactSecrets({
      authorization: `Bearer ${TOKEN}`,
      headers: { cookie: `forage_session=${SESSION}`, "set-cookie": ["a=b"], accept: "text/html" },
      user: { email: "ann@example.org", password: "hunter2hunter2", webhookSecret: "whsec", tokenHash: "abc" },
      list: [{ apiKey: "k", secret: "s" }],
      crawlId: 7,
    });
    expect(out).toEqual({
      authorization: REDACTED,
      headers: { cookie: REDACTED, "set-cookie": REDACTED, accept: "text/html" },
      user: { email: "ann@example.org", password: REDACTED, webhookSecret: REDACTED, tokenHash: REDACTED },
      list: [{ apiKey: REDACTED, secret: REDACTED }],
      crawlId: 7,
    });
  });

  it("scrubs tokens, bearer credentials, session cookies, URL passwords and secret query parameters from text", () => {
    const text = scrubSecretText(
      `token ${TOKEN} sent as Bearer ${TOKEN}; Cookie: forage_session=${SESSION}; db postgresql://forage:pa55word@db:5432/x; link /setup?token=abcdefABCDEF1234&x=1`,
    );
    for (const secret of [TOKEN, SESSION, "pa55word", "abcdefABCDEF1234", "Q".repeat(20)]) expect(text).not.toContain(secret);
    expect(text).toContain("/setup?token=[redacted]&x=1");
    expect(text).toContain("postgresql://[redacted]@db:5432/x");
  });
});

describe("logger", () => {
  it("writes one JSON object a line with the ids of its child bindings, and no secret in fields, bindings, messages or errors", () => {
    const { log, lines, json } = capture();
    const crawl = crawlLog(log.child({ workerId: "w1", token: TOKEN }), 42);
    crawl.info({ headers: { authorization: `Bearer ${TOKEN}` }, password: "hunter2hunter2" }, `claimed with ${TOKEN}`);
    harvestLog(log, 3).warn({ err: new Error(`refused: Bearer ${TOKEN}`) }, "webhook attempt failed");
    requestLog(log, "req-1").info({ path: "/api/crawls", cookie: `forage_session=${SESSION}` }, "request");
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(TOKEN);
      expect(line).not.toContain(SESSION);
      expect(line).not.toContain("hunter2");
    }
    const [first, second, third] = json();
    expect(first).toMatchObject({ name: "forage-test", level: 30, workerId: "w1", token: REDACTED, crawlId: 42, password: REDACTED, msg: `claimed with forage_${REDACTED}` });
    expect(second).toMatchObject({ harvestId: 3, level: 40, err: { type: "Error", message: `refused: Bearer forage_${REDACTED}` } });
    expect(third).toMatchObject({ requestId: "req-1", path: "/api/crawls", cookie: REDACTED });
  });

  it("keeps to its level: debug lines are dropped at info, everything at silent", () => {
    const info = capture("info");
    info.log.debug("hidden");
    info.log.info("shown");
    expect(info.json().map((line) => line.msg)).toEqual(["shown"]);
    const silent = capture("silent");
    silent.log.error("never");
    expect(silent.lines).toEqual([]);
  });

  it("writes pretty lines for people, redacted too", () => {
    const { log, lines } = capture("info", "pretty");
    crawlLog(log, 5).info({ authorization: TOKEN }, "crawl started");
    const text = lines.join("\n");
    expect(text).toContain("crawl started");
    expect(text).toContain("crawlId");
    expect(text).not.toContain(TOKEN);
    expect(() => JSON.parse(lines[0]!)).toThrow();
  });
});
