"use client";

import { useRouter } from "next/navigation";
import { CredentialsForm } from "./CredentialsForm";
import { postJson } from "./post-json";

/** The sign-in page; without any account yet it says how the first admin is made. */
export function SignInPage({ next, hasUsers }: { next: string; hasUsers: boolean }) {
  const router = useRouter();
  return (
    <div className="auth-page">
      <h1>Sign in</h1>
      {hasUsers ? null : (
        <div className="notice" data-testid="no-users">
          This Forage server has no account yet. Open the setup link that <code>npm start</code> printed in its console, or
          create the first admin with <code>npx forage user add you@example.org --admin --password-stdin</code>.
        </div>
      )}
      <CredentialsForm
        submitLabel="Sign in"
        busyLabel="Signing in…"
        submit={async (credentials) => {
          await postJson("/api/auth/sign-in", credentials);
          router.replace(next);
          router.refresh();
        }}
      />
    </div>
  );
}
