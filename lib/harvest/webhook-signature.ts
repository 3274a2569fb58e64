import crypto from "node:crypto";

/**
 * Webhook signatures: `X-Forage-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
 * with the harvest's secret. The timestamp is inside the signed text, so a receiver can refuse an
 * old body replayed (dub signs the body alone, which it cannot); the delivery id header
 * (`X-Forage-Delivery`) lets it drop a retry it already handled.
 */
export const SIGNATURE_HEADER = "x-forage-signature";

/** A new secret: 192 random bits with a recognisable prefix. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString("base64url")}`;
}

export function signWebhook(secret: string, body: string, timestampSecs: number): string {
  const digest = crypto.createHmac("sha256", secret).update(`${timestampSecs}.${body}`).digest("hex");
  return `t=${timestampSecs},v1=${digest}`;
}

/**
 * What a receiver does: the signature matches the body under the secret (constant-time), and
 * its timestamp is within `toleranceSecs` of `nowSecs`. @default toleranceSecs 300
 */
export function verifyWebhook(secret: string, body: string, header: string | null | undefined, nowSecs: number, toleranceSecs = 300): boolean {
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(nowSecs - timestamp) > toleranceSecs) return false;
  const expected = Buffer.from(signWebhook(secret, body, timestamp).slice(-64), "hex");
  return crypto.timingSafeEqual(expected, Buffer.from(match[2]!, "hex"));
}
