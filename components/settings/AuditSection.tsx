"use client";

import { useState } from "react";
import { useAuditQuery, type AuditEventRow } from "@/components/hooks/use-audit-query";
import { DateTime } from "@/components/ui/DateTime";
import { AUDIT_ACTIONS } from "@/lib/auth/audit-log";

/** Who did what to whom, from which address: sign-ins, account, token and policy changes, deletions. Newest first. */
export function AuditSection() {
  const [action, setAction] = useState("");
  const audit = useAuditQuery(action);
  const events = audit.data?.pages.flatMap((page) => page.events) ?? [];

  return (
    <section className="form-section settings-section" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <p className="section-hint">Every sign-in and failed attempt, every change to users, tokens and the network policy, and every deletion, newest first. Entries outlive the users they name.</p>
      <div className="field">
        <label className="field-label" htmlFor="audit-action">
          Show
        </label>
        <select id="audit-action" value={action} onChange={(event) => setAction(event.target.value)}>
          <option value="">every action</option>
          {AUDIT_ACTIONS.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      {audit.error ? <p className="error-box error-small">{audit.error.message}</p> : null}
      <div className="table-scroll">
        <table className="data-table" data-testid="audit-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Subject</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id} data-testid={`audit-${event.id}`}>
                <td>
                  <DateTime iso={event.at} />
                </td>
                <td>{who(event)}</td>
                <td title={event.details ? JSON.stringify(event.details) : undefined}>{event.action}</td>
                <td>{event.subject ?? "–"}</td>
                <td className="mono-small">{event.address ?? "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {audit.isSuccess && events.length === 0 ? <p className="hint">No entries.</p> : null}
      {audit.hasNextPage ? (
        <button type="button" className="button button-small" disabled={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
          {audit.isFetchingNextPage ? "Loading…" : "Older entries"}
        </button>
      ) : null}
    </section>
  );
}

/** The actor, or where the act came from when nobody was signed in. */
function who(event: AuditEventRow): string {
  if (event.actorEmail) return event.actorEmail;
  return event.details?.via === "cli" ? "command line" : "–";
}
