"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { CrawlControl, CrawlDetail } from "@/components/hooks/api-types";
import { useCrawlControlMutation, useDeleteCrawlMutation } from "@/components/hooks/use-crawl-mutations";
import { ConfirmDialog } from "@/components/ui/ConfirmDialog";

const PENDING_TEXT: Record<string, string> = {
  pause: "Pausing: the worker finishes the request in flight, then waits.",
  resume: "Resuming: the worker picks the crawl up within a second.",
  stop: "Stopping: the crawl keeps everything collected so far.",
  cancel: "Cancelling: the collected files will be discarded.",
};

/** Pause / Resume / Stop / Cancel while the crawl can change; Clone and Delete once it is over. */
export function CrawlControls({ crawl }: { crawl: CrawlDetail }) {
  const router = useRouter();
  const control = useCrawlControlMutation(crawl.id);
  const remove = useDeleteCrawlMutation(crawl.id);
  const [confirm, setConfirm] = useState<"cancel" | "delete" | null>(null);
  // Stronger controls stay available while a weaker one is pending (cancel replaces anything).
  const busy = control.isPending;
  const pending = crawl.pendingControl;
  const send = (action: CrawlControl) => control.mutate(action);
  const { status } = crawl;
  const active = status === "queued" || status === "running" || status === "paused";

  return (
    <div className="controls">
      <div className="control-buttons" role="group" aria-label="Crawl controls">
        {(status === "running" || status === "queued") && pending !== "pause" ? (
          <button type="button" className="button" onClick={() => send("pause")} disabled={busy || pending === "stop" || pending === "cancel"}>
            <span aria-hidden="true">❚❚ </span>Pause
          </button>
        ) : null}
        {status === "paused" || (status === "running" && pending === "pause") ? (
          <button type="button" className="button button-primary" onClick={() => send("resume")} disabled={busy || pending === "resume" || pending === "stop" || pending === "cancel"}>
            <span aria-hidden="true">▶ </span>Resume
          </button>
        ) : null}
        {status === "running" || status === "paused" ? (
          <button
            type="button"
            className="button"
            onClick={() => send("stop")}
            disabled={busy || pending === "stop" || pending === "cancel"}
            title="End the crawl now and keep what it collected"
          >
            <span aria-hidden="true">■ </span>Stop
          </button>
        ) : null}
        {active ? (
          <button type="button" className="button button-danger-outline" onClick={() => setConfirm("cancel")} disabled={busy || pending === "cancel"}>
            Cancel
          </button>
        ) : null}
        {crawl.status === "finished" && crawl.replayOfCrawlId === null ? (
          <Link href={`/crawls/new?from=${crawl.id}&recrawl=1`} className="button" title="A new run that starts from what this crawl learned and reports what changed">
            Re-crawl
          </Link>
        ) : null}
        <Link href={`/crawls/new?from=${crawl.id}`} className="button">
          Clone settings
        </Link>
        {!active ? (
          <button type="button" className="button button-danger-outline" onClick={() => setConfirm("delete")} disabled={remove.isPending}>
            Delete
          </button>
        ) : null}
      </div>
      <div aria-live="polite" className="control-status">
        {crawl.pendingControl ? <p className="notice notice-small">{PENDING_TEXT[crawl.pendingControl] ?? `Applying “${crawl.pendingControl}”…`}</p> : null}
      </div>
      {control.error || remove.error ? (
        <p role="alert" className="error-box error-small">
          {(control.error ?? remove.error)?.message}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirm === "cancel"}
        title="Cancel this crawl?"
        confirmLabel="Cancel crawl and discard files"
        cancelLabel="Keep crawling"
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          send("cancel");
        }}
      >
        <p>
          Cancelling ends the crawl and <strong>deletes the files it downloaded</strong>. To end it and keep the
          files, use Stop instead.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === "delete"}
        title="Delete this crawl?"
        confirmLabel="Delete crawl and files"
        cancelLabel="Keep it"
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          remove.mutate(undefined, { onSuccess: () => router.push("/") });
        }}
      >
        <p>The crawl, its request log and every downloaded file are removed. This cannot be undone.</p>
      </ConfirmDialog>
    </div>
  );
}
