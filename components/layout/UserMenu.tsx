"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";

/** Who is signed in (a link to their Account page: password, sign out everywhere), and the way out. */
export function UserMenu({ email }: { email: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    await fetch("/api/auth/sign-out", { method: "POST" }).catch(() => undefined);
    router.replace("/sign-in");
    router.refresh();
  }
  return (
    <div className="user-menu">
      <Link href="/account" className="user-email" title="Signed in as: your account">
        {email}
      </Link>
      <button type="button" className="button button-small button-ghost" onClick={signOut} disabled={busy}>
        Sign out
      </button>
    </div>
  );
}
