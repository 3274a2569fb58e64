"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Field } from "@/components/crawl-form/fields";
import { ApiError, apiFetch } from "@/components/hooks/api-fetch";
import { accountKeys } from "@/components/hooks/use-accounts-queries";
import { splitNetworkList } from "@/lib/crawler/fetch/network-list";

interface NetworkPolicy {
  privateNetworks: string[];
  fromEnvironment: string[];
  alwaysRefused: string[];
  updatedAt: string | null;
}

const networkKey = [...accountKeys.all, "network"] as const;

/** Which private, loopback and link-local ranges crawls may reach: the server's decision, not a crawl's. */
export function NetworkSection() {
  const client = useQueryClient();
  const policy = useQuery({ queryKey: networkKey, queryFn: () => apiFetch<NetworkPolicy>("/api/settings/network") });
  const save = useMutation({
    mutationFn: (privateNetworks: string[]) =>
      apiFetch<NetworkPolicy>("/api/settings/network", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ privateNetworks }) }),
    onSuccess: (saved) => client.setQueryData(networkKey, saved),
  });
  // The saved list fills the field once, when it arrives; later refetches never overwrite an edit.
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (policy.data) setText((current) => current ?? policy.data.privateNetworks.join("\n"));
  }, [policy.data]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    // Lines, or commas; "192.168.1.10/32:8080,8443" stays one entry (its ports continue it).
    const lines = splitNetworkList(text ?? "");
    try {
      await save.mutateAsync(lines);
      setSaved(true);
    } catch (caught) {
      if (caught instanceof ApiError && caught.fields) {
        setError(
          Object.entries(caught.fields)
            // An entry's message quotes the entry itself ("\"10.0.0.0/40\" has an invalid prefix…").
            .map(([, message]) => message)
            .join("; "),
        );
      } else setError(caught instanceof Error ? caught.message : String(caught));
    }
  }

  return (
    <section className="form-section settings-section" aria-labelledby="network-title">
      <h2 id="network-title">Network</h2>
      <p className="section-hint">
        Crawls and webhooks reach public addresses. Private, loopback and link-local addresses (an intranet, this machine) are reached
        only inside the ranges below, on every port or only on the ports an entry lists; cloud-metadata addresses ({policy.data?.alwaysRefused.join(", ") ?? "169.254.169.254, …"}) never. Crawls read
        the list when they start or resume.
      </p>
      {policy.error ? <p className="error-box error-small">{policy.error.message}</p> : null}
      {policy.data && policy.data.fromEnvironment.length > 0 ? (
        <p className="hint" data-testid="network-from-environment">
          Also allowed by the server&apos;s FORAGE_PRIVATE_NETWORKS: <code>{policy.data.fromEnvironment.join(", ")}</code>
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <Field field="privateNetworks" label="Private networks crawls may reach" hint="One CIDR or address per line, any port (10.20.0.0/16, 192.168.1.5) or only the listed ports (192.168.1.10/32:8080,8443, 10.0.0.0/8:8000-8099, [fd00::/8]:443)." error={error}>
          {(control) => <textarea {...control} rows={4} className="mono-small" value={text ?? ""} disabled={text === null} onChange={(event) => setText(event.target.value)} />}
        </Field>
        <div className="form-actions auth-actions">
          <button type="submit" className="button button-primary" disabled={save.isPending || !policy.data}>
            Save network policy
          </button>
          {saved ? (
            <span className="notice notice-success notice-small" role="status">
              Saved
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
