import { request, type Dispatcher } from "undici";
import { createAgent } from "../crawler/fetch/network-safety";

/** How one POST to a webhook went. */
export type WebhookAttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/** Sends one delivery; injectable so tests and other transports can stand in. */
export type WebhookSender = (url: string, body: string, headers: Record<string, string>) => Promise<WebhookAttemptResult>;

/**
 * POSTs webhook bodies through the crawler's connection guard (network-safety `createAgent`):
 * the receiver's address is checked on the socket, after DNS, against the server's network
 * policy, so a webhook cannot reach a private address the crawls may not. Redirects are not
 * followed (a 3xx is a failed attempt): a redirect could point anywhere. Any 2xx is delivered.
 */
export function createWebhookSender(options: { privateNetworks: readonly string[]; timeoutMs?: number }): WebhookSender & { close(): Promise<void> } {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const agent: Dispatcher = createAgent({ privateNetworks: [...options.privateNetworks], connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, bodyTimeoutMs: timeoutMs });
  const send = async (url: string, body: string, headers: Record<string, string>): Promise<WebhookAttemptResult> => {
    try {
      const response = await request(url, { method: "POST", body, headers: { "content-type": "application/json", "user-agent": "Forage-Webhook/1", ...headers }, dispatcher: agent, signal: AbortSignal.timeout(timeoutMs) });
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const { statusCode } = response;
      return statusCode >= 200 && statusCode < 300 ? { ok: true, status: statusCode } : { ok: false, status: statusCode, error: `HTTP ${statusCode}` };
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, status: null, error: cause instanceof Error && cause.message !== message ? `${message}: ${cause.message}` : message };
    }
  };
  return Object.assign(send, { close: () => agent.close() });
}
