/** Error raised for a non-2xx API answer, carrying the API's `{ error: { code, message } }`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export async function apiFetch<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, { ...init, headers: { accept: "application/json", ...init?.headers } });
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 401 && typeof window !== "undefined" && !path.startsWith("/api/auth/")) {
    // The session ended (signed out elsewhere, expired): sign in again and come back here.
    window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null)?.error;
    throw new ApiError(error?.message ?? `Request failed (${response.status})`, response.status, error?.code ?? "http", error?.fields);
  }
  return body as T;
}
