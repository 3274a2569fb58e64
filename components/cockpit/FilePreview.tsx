"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiFetch } from "@/components/hooks/api-fetch";
import { formatInteger } from "@/lib/format";
import type { FilePreview as Preview } from "@/lib/preview/preview-types";

/**
 * A collected file looked into: the first rows of a CSV or spreadsheet, a PDF's page count and
 * first lines, a JSON document's top-level structure; computed by the server from the stored
 * bytes (`GET …/targets/:targetId/preview`), or the reason it cannot be. Opening it moves focus
 * to its heading (it opens below the file list, far from the button a keyboard user pressed);
 * closing it gives focus back to that button.
 */
export function FilePreview({ crawlId, targetId, name, onClose }: { crawlId: number; targetId: number; name: string; onClose: () => void }) {
  const preview = useQuery({
    queryKey: ["crawls", crawlId, "targets", targetId, "preview"],
    queryFn: () => apiFetch<Preview>(`/api/crawls/${crawlId}/targets/${targetId}/preview`),
    retry: false,
    staleTime: Infinity,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    heading.current?.focus();
  }, []);
  const close = () => {
    const back = opener.current;
    onClose();
    if (back?.isConnected) back.focus();
  };
  return (
    <section className="file-preview" aria-labelledby="file-preview-title" data-testid="file-preview">
      <div className="table-toolbar">
        <h3 id="file-preview-title" tabIndex={-1} ref={heading}>
          Preview of {name}
        </h3>
        <button type="button" className="button button-small" onClick={close}>
          Close preview
        </button>
      </div>
      {preview.isPending ? <p className="panel-loading">Reading the stored file…</p> : null}
      {preview.error ? (
        <p role="alert" className="error-box" data-testid="file-preview-error">
          {preview.error.message}
        </p>
      ) : null}
      {preview.data ? <PreviewBody preview={preview.data} /> : null}
    </section>
  );
}

function PreviewBody({ preview }: { preview: Preview }) {
  if (preview.kind === "pdf") {
    return (
      <div data-testid="file-preview-pdf">
        <p>
          PDF, {formatInteger(preview.pages)} {preview.pages === 1 ? "page" : "pages"}
          {preview.title ? `: ${preview.title}` : ""}
        </p>
        {preview.lines.length ? <pre className="preview-text">{preview.lines.join("\n")}</pre> : <p className="empty">No text on its first pages (a scan?).</p>}
      </div>
    );
  }
  if (preview.kind === "json") {
    return (
      <div data-testid="file-preview-json">
        <p>
          JSON {preview.type}
          {preview.size === null ? "" : ` of ${formatInteger(preview.size)} ${preview.type === "array" ? "items" : "keys"}`}
        </p>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{preview.type === "array" ? "Item" : "Key"}</th>
              <th scope="col">Type</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {preview.entries.map((entry) => (
              <tr key={entry.key}>
                <td>
                  <code>{entry.key}</code>
                </td>
                <td>{entry.type}</td>
                <td className="url-cell">{entry.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return (
    <div data-testid="file-preview-table">
      {preview.sheetCount > preview.sheets.length ? <p className="panel-hint">First {preview.sheets.length} of {preview.sheetCount} sheets.</p> : null}
      {preview.sheets.map((sheet, index) => (
        <div key={`${sheet.name}-${index}`} className="table-scroll">
          <table className="data-table" aria-label={sheet.name ? `Sheet ${sheet.name}` : "First rows"}>
            {sheet.name ? <caption>{sheet.name}</caption> : null}
            <tbody>
              {sheet.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {sheet.moreRows || sheet.moreColumns ? <p className="panel-hint">First rows{sheet.moreColumns ? " and columns" : ""} only.</p> : null}
        </div>
      ))}
    </div>
  );
}
