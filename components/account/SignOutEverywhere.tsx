"use client";

import { useRouter } from "next/navigation";
import { useSignOutEverywhereMutation } from "@/components/hooks/use-account-mutations";

/** Ends every session of this user, on every browser (this one too), e.g. after a laptop was lost. */
export function SignOutEverywhere() {
  const router = useRouter();
  const signOut = useSignOutEverywhereMutation();

  async function onClick() {
    await signOut.mutateAsync();
    router.replace("/sign-in");
    router.refresh();
  }

  return (
    <section className="form-section settings-section" aria-labelledby="everywhere-title">
      <h2 id="everywhere-title">Sign out everywhere</h2>
      <p className="section-hint">Ends your sessions on every browser, this one included. API tokens keep working until an admin revokes them in Settings.</p>
      {signOut.error ? (
        <p className="error-box error-small" role="alert">
          {signOut.error.message}
        </p>
      ) : null}
      <button type="button" className="button button-danger-outline" disabled={signOut.isPending} onClick={() => void onClick()}>
        Sign out everywhere
      </button>
    </section>
  );
}
