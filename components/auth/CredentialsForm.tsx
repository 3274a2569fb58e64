"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/crawl-form/fields";
import { ApiError } from "@/components/hooks/api-fetch";

export interface Credentials {
  email: string;
  password: string;
}

/**
 * Email and password fields with their errors next to them, and one button: the sign-in and the
 * setup forms. `submit` throws an ApiError whose `fields` name the field at fault; any other
 * message shows above the button.
 */
export function CredentialsForm({
  submitLabel,
  busyLabel,
  newPassword = false,
  submit,
}: {
  submitLabel: string;
  busyLabel: string;
  /** Ask for the password twice and let the browser suggest a new one. */
  newPassword?: boolean;
  submit: (credentials: Credentials) => Promise<void>;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setMessage(null);
    if (newPassword && password !== repeat) {
      setFields({ repeat: "is not the same as the password above" });
      return;
    }
    setBusy(true);
    try {
      await submit({ email, password });
    } catch (error) {
      if (error instanceof ApiError && error.fields && Object.keys(error.fields).some((key) => key === "email" || key === "password")) {
        setFields(error.fields);
      } else {
        setMessage(error instanceof Error ? error.message : String(error));
      }
      setBusy(false);
    }
  }

  return (
    <form className="form-section auth-form" onSubmit={onSubmit} noValidate>
      <Field field="email" label="Email" error={fields.email}>
        {(control) => <input {...control} type="email" autoComplete={newPassword ? "email" : "username"} required value={email} onChange={(event) => setEmail(event.target.value)} />}
      </Field>
      <Field field="password" label="Password" hint={newPassword ? "At least 8 characters and hard to guess: a few uncommon words work well." : undefined} error={fields.password}>
        {(control) => (
          <input {...control} type="password" autoComplete={newPassword ? "new-password" : "current-password"} required value={password} onChange={(event) => setPassword(event.target.value)} />
        )}
      </Field>
      {newPassword ? (
        <Field field="repeat" label="Repeat the password" errorLabel="The repeated password" error={fields.repeat}>
          {(control) => <input {...control} type="password" autoComplete="new-password" required value={repeat} onChange={(event) => setRepeat(event.target.value)} />}
        </Field>
      ) : null}
      {message ? (
        <p className="error-box error-small" role="alert">
          {message}
        </p>
      ) : null}
      <div className="form-actions auth-actions">
        <button type="submit" className="button button-primary button-large" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
