import { apiFetch } from "@/components/hooks/api-fetch";

/** POST a JSON body to the API; errors come back as ApiError with the API's field messages. */
export function postJson<T>(path: string, body: unknown): Promise<T> {
  return apiFetch<T>(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}
