"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/crawl-form/fields";
import { ApiError } from "@/components/hooks/api-fetch";
import { useChangePasswordMutation } from "@/components/hooks/use-account-mutations";

/** A new password, the current one required; the server checks its strength and ends the other sessions. */
export function ChangePasswordForm({ email }: { email: string }) {
  const change = useChangePasswordMutation();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [repeatPassword, setRepeatPassword] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setDone(null);
    if (newPassword !== repeatPassword) {
      setFields({ repeatPassword: "does not match the new password" });
      return;
    }
    try {
      const { endedSessions } = await change.mutateAsync({ currentPassword, newPassword });
      setDone(`Password changed.${endedSessions > 0 ? ` ${endedSessions} other session${endedSessions === 1 ? "" : "s"} signed out.` : ""}`);
      setCurrentPassword("");
      setNewPassword("");
      setRepeatPassword("");
    } catch (error) {
      // Without fields (429 after wrong guesses, a network error) the message goes next to the current password.
      setFields(error instanceof ApiError && error.fields ? error.fields : { currentPassword: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <section className="form-section settings-section" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form className="settings-form" onSubmit={onSubmit} noValidate>
        {/* For the browser's password manager: which account the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field field="currentPassword" label="Current password" error={fields.currentPassword}>
          {(control) => <input {...control} type="password" autoComplete="current-password" value={currentPassword} onChange={(event) => setCurrentPassword(event.target.value)} />}
        </Field>
        <Field field="newPassword" label="New password" hint="At least 8 characters and hard to guess: a few uncommon words work well." error={fields.newPassword}>
          {(control) => <input {...control} type="password" autoComplete="new-password" value={newPassword} onChange={(event) => setNewPassword(event.target.value)} />}
        </Field>
        <Field field="repeatPassword" label="Repeat the new password" errorLabel="The repeated password" error={fields.repeatPassword}>
          {(control) => <input {...control} type="password" autoComplete="new-password" value={repeatPassword} onChange={(event) => setRepeatPassword(event.target.value)} />}
        </Field>
        <button type="submit" className="button button-primary" disabled={change.isPending}>
          Change password
        </button>
      </form>
      {done ? (
        <p className="notice notice-success" role="status">
          {done}
        </p>
      ) : null}
    </section>
  );
}
