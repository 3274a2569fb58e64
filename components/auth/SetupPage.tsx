"use client";

import { useRouter } from "next/navigation";
import { CredentialsForm } from "./CredentialsForm";
import { postJson } from "./post-json";

/** The one-time setup link's page: the first admin chooses an email and a password. */
export function SetupPage({ token, problem }: { token: string; problem: string | null }) {
  const router = useRouter();
  return (
    <div className="auth-page">
      <h1>Create the admin account</h1>
      {problem ? (
        <p className="error-box" role="alert" data-testid="setup-problem">
          {problem}
        </p>
      ) : (
        <>
          <p className="lead">
            The admin manages users, API tokens and which private networks crawls may reach. You can add team members
            afterwards under Settings.
          </p>
          <CredentialsForm
            submitLabel="Create admin account"
            busyLabel="Creating…"
            newPassword
            submit={async (credentials) => {
              await postJson("/api/auth/setup", { token, ...credentials });
              router.replace("/");
              router.refresh();
            }}
          />
        </>
      )}
    </div>
  );
}
