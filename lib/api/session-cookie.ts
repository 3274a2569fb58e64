/**
 * The session cookie: `HttpOnly` (no script reads it), `SameSite=Lax` (not sent on cross-site
 * POSTs), `Path=/`, and over https `Secure` with the `__Host-` prefix (no subdomain can set or
 * shadow it).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? "__Host-forage_session" : "forage_session";
}

export function serializeSessionCookie(secret: string, expiresAt: Date, secure: boolean, now = new Date()): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return [`${sessionCookieName(secure)}=${secret}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAge}`, ...(secure ? ["Secure"] : [])].join("; ");
}

export function clearSessionCookie(secure: boolean): string {
  return [`${sessionCookieName(secure)}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0", ...(secure ? ["Secure"] : [])].join("; ");
}

/** The session cookie's value in a Cookie header, or null. */
export function readSessionCookie(cookieHeader: string | null, secure: boolean): string | null {
  if (!cookieHeader) return null;
  const name = sessionCookieName(secure);
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}
