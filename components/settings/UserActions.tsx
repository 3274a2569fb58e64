"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/crawl-form/fields";
import { ApiError } from "@/components/hooks/api-fetch";
import type { UserRow } from "@/components/hooks/use-accounts-queries";
import { useDeleteUserMutation, useUpdateUserMutation, type UserPatch } from "@/components/hooks/use-user-admin-mutations";

type Open = "none" | "reset" | "delete";

/**
 * One user's row actions in Settings → Users: role, disable/enable, reset password (a form that
 * opens under the row's buttons, its error next to the field), delete (asks first). The admin's own
 * row has none: the server refuses them too, and one's own password changes on the Account page.
 */
export function UserActions({ user, isSelf }: { user: UserRow; isSelf: boolean }) {
  const update = useUpdateUserMutation();
  const remove = useDeleteUserMutation();
  const [open, setOpen] = useState<Open>("none");
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  if (isSelf) return <span className="hint">You (change your password on the Account page)</span>;

  async function apply(patch: UserPatch, done: string) {
    setMessage(null);
    setFieldError(undefined);
    try {
      await update.mutateAsync({ id: user.id, patch });
      setMessage({ error: false, text: done });
      return true;
    } catch (error) {
      if ("password" in patch && error instanceof ApiError && error.fields?.password) setFieldError(error.fields.password);
      else setMessage({ error: true, text: error instanceof Error ? error.message : String(error) });
      return false;
    }
  }

  async function onReset(event: FormEvent) {
    event.preventDefault();
    if (await apply({ password }, `New password set for ${user.email}; their sessions ended.`)) {
      setPassword("");
      setOpen("none");
    }
  }

  async function onDelete() {
    setMessage(null);
    try {
      await remove.mutateAsync(user.id);
    } catch (error) {
      setMessage({ error: true, text: error instanceof Error ? error.message : String(error) });
      setOpen("none");
    }
  }

  const busy = update.isPending || remove.isPending;
  return (
    <div className="user-actions">
      <div className="row-buttons">
        {/* Named by aria-label, not a hidden <label>: the row's only visible text with the email stays its cell. */}
        <select aria-label={`Role of ${user.email}`} value={user.role} disabled={busy} onChange={(event) => void apply({ role: event.target.value as UserRow["role"] }, `${user.email} is now ${event.target.value}.`)}>
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
        {user.disabledAt ? (
          <button type="button" className="button button-small" disabled={busy} onClick={() => void apply({ disabled: false }, `${user.email} can sign in again.`)} aria-label={`Enable ${user.email}`}>
            Enable
          </button>
        ) : (
          <button
            type="button"
            className="button button-small button-danger-outline"
            disabled={busy}
            onClick={() => void apply({ disabled: true }, `${user.email} is disabled: signed out, tokens refused.`)}
            aria-label={`Disable ${user.email}`}
          >
            Disable
          </button>
        )}
        <button type="button" className="button button-small" disabled={busy} onClick={() => setOpen(open === "reset" ? "none" : "reset")} aria-label={`Reset password of ${user.email}`}>
          Reset password
        </button>
        <button type="button" className="button button-small button-danger-outline" disabled={busy} onClick={() => setOpen("delete")} aria-label={`Delete ${user.email}`}>
          Delete
        </button>
      </div>
      {open === "reset" ? (
        <form className="settings-form" onSubmit={onReset} noValidate>
          <Field field="resetPassword" label={`New password for ${user.email}`} hint="Their sessions end; tell them the new password another way." error={fieldError}>
            {(control) => <input {...control} type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />}
          </Field>
          <button type="submit" className="button button-small button-primary" disabled={busy}>
            Set password
          </button>
        </form>
      ) : null}
      {open === "delete" ? (
        <div className="notice notice-small confirm-delete" role="alertdialog" aria-label={`Delete ${user.email}?`}>
          <p>
            Delete {user.email}? Their sessions and API tokens go; their crawls and harvests stay.
          </p>
          <button type="button" className="button button-small button-danger" disabled={busy} onClick={() => void onDelete()}>
            Yes, delete {user.email}
          </button>{" "}
          <button type="button" className="button button-small" onClick={() => setOpen("none")}>
            Cancel
          </button>
        </div>
      ) : null}
      {message ? (
        <p className={message.error ? "error-box error-small" : "notice notice-success notice-small"} role={message.error ? "alert" : "status"}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
