"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/crawl-form/fields";
import { ApiError } from "@/components/hooks/api-fetch";
import { useCreateUserMutation, useUsersQuery } from "@/components/hooks/use-accounts-queries";
import { DateTime } from "@/components/ui/DateTime";
import { UserActions } from "./UserActions";

/** The team: who may sign in, and who administers the server; each user disabled, deleted, their role or password changed here. */
export function UsersSection({ currentEmail }: { currentEmail: string }) {
  const users = useUsersQuery();
  const create = useCreateUserMutation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<"admin" | "member">("member");
  const [fields, setFields] = useState<Record<string, string>>({});
  const [added, setAdded] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFields({});
    setAdded(null);
    try {
      const { user } = await create.mutateAsync({ email, password, role });
      setAdded(`${user.email} can now sign in as ${user.role}.`);
      setEmail("");
      setPassword("");
    } catch (error) {
      setFields(error instanceof ApiError && error.fields ? error.fields : { email: error instanceof Error ? error.message : String(error) });
    }
  }

  return (
    <section className="form-section settings-section" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <p className="section-hint">
        Members define, watch and control the team&apos;s crawls. Admins also manage users, API tokens, the network policy and the
        workers, and read the audit log. A disabled user cannot sign in, and their sessions and API tokens stop working at once.
      </p>
      {users.error ? <p className="error-box error-small">{users.error.message}</p> : null}
      <div className="table-scroll">
        <table className="data-table" data-testid="users-table">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(users.data ?? []).map((user) => (
              <tr key={user.id} data-testid={`user-${user.email}`}>
                <td>{user.email}</td>
                <td>{user.role}</td>
                <td>{user.disabledAt ? <span className="status status-failed">disabled</span> : "active"}</td>
                <td>
                  <DateTime iso={user.createdAt} />
                </td>
                <td>
                  <UserActions user={user} isSelf={user.email === currentEmail} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Add a user</h3>
      <form className="settings-form" onSubmit={onSubmit} noValidate>
        <Field field="email" label="Email" error={fields.email}>
          {(control) => <input {...control} type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} />}
        </Field>
        <Field field="password" label="Password" hint="8+ characters, hard to guess." error={fields.password}>
          {(control) => <input {...control} type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />}
        </Field>
        <Field field="role" label="Role" error={fields.role}>
          {(control) => (
            <select {...control} value={role} onChange={(event) => setRole(event.target.value as "admin" | "member")}>
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          )}
        </Field>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Add user
        </button>
      </form>
      {added ? <p className="notice notice-success">{added}</p> : null}
    </section>
  );
}
