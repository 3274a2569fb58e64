"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/crawl-form/fields";
import { ApiError } from "@/components/hooks/api-fetch";
import { useCreateTokenMutation, useRevokeTokenMutation, useTokensQuery, useUsersQuery } from "@/components/hooks/use-accounts-queries";
import { CopyButton } from "@/components/ui/CopyButton";
import { DateTime } from "@/components/ui/DateTime";

/** API tokens for scripts and the CLI: created here (shown once), listed by their first characters, revoked at once. */
export function TokensSection({ currentEmail }: { currentEmail: string }) {
  const tokens = useTokensQuery();
  const users = useUsersQuery();
  const create = useCreateTokenMutation();
  const revoke = useRevokeTokenMutation();
  const [name, setName] = useState("");
  const [userEmail, setUserEmail] = useState(currentEmail);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setCreated(null);
    try {
      const answer = await create.mutateAsync({ name, userEmail });
      setCreated({ name: answer.apiToken.name, token: answer.token });
      setName("");
    } catch (error) {
      setFields(error instanceof ApiError && error.fields ? error.fields : { name: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <section className="form-section settings-section" aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p className="section-hint">
        Scripts and the command line send a token as <code>Authorization: Bearer &lt;token&gt;</code> and act as its user.
        Only a hash is stored: a token is shown once, when it is created.
      </p>
      <form className="settings-form" onSubmit={onSubmit} noValidate>
        <Field field="name" label="Token name" error={fields.name}>
          {(control) => <input {...control} type="text" placeholder="nightly export" value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <Field field="userEmail" label="Acts as" error={fields.userEmail}>
          {(control) => (
            <select {...control} value={userEmail} onChange={(event) => setUserEmail(event.target.value)}>
              {(users.data ?? [{ email: currentEmail, id: 0 }]).map((user) => (
                <option key={user.email} value={user.email}>
                  {user.email}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create token
        </button>
      </form>
      {created ? (
        <div className="notice notice-success" role="status">
          <p>
            Token “{created.name}” created. Copy it now: it will not be shown again.
          </p>
          <div className="token-copy">
            <p className="token-reveal" data-testid="new-token">
              {created.token}
            </p>
            <CopyButton text={created.token} label="Copy token" />
          </div>
        </div>
      ) : null}
      {tokens.error ? <p className="error-box error-small">{tokens.error.message}</p> : null}
      <div className="table-scroll">
        <table className="data-table" data-testid="tokens-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Token</th>
              <th scope="col">Acts as</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data && tokens.data.length === 0 ? (
              <tr>
                <td colSpan={5} className="empty-cell" data-testid="tokens-empty">
                  No tokens yet. Create one above for a script or the command line.
                </td>
              </tr>
            ) : null}
            {(tokens.data ?? []).map((token) => (
              <tr key={token.id} data-testid={`token-${token.id}`}>
                <td>{token.name}</td>
                <td className="mono-small">{token.prefix}…</td>
                <td>{token.userEmail}</td>
                <td>{token.lastUsedAt ? <DateTime iso={token.lastUsedAt} relative /> : "never"}</td>
                <td>
                  {token.revokedAt ? (
                    <span className="status status-failed">revoked</span>
                  ) : (
                    <button
                      type="button"
                      className="button button-small button-danger-outline"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate(token.id)}
                      aria-label={`Revoke token ${token.name}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
