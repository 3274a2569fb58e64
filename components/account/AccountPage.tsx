"use client";

import { ChangePasswordForm } from "./ChangePasswordForm";
import { SignOutEverywhere } from "./SignOutEverywhere";

/** Every user's own page: who they are, a new password, and signing out on every browser. */
export function AccountPage({ email, role }: { email: string; role: string }) {
  return (
    <div className="settings-page">
      <h1>Account</h1>
      <p className="section-hint" data-testid="account-identity">
        Signed in as <strong>{email}</strong> ({role}).
      </p>
      <ChangePasswordForm email={email} />
      <SignOutEverywhere />
    </div>
  );
}
