"use client";

import { useState } from "react";

/**
 * Copies `text` to the clipboard and says so. Where the Clipboard API is missing (a page served
 * over plain http to another machine), the text is selected instead, ready for Ctrl+C.
 */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "select">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("select");
    }
  };
  return (
    <span className="copy-button">
      <button type="button" className="button button-small" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === "copied" ? "Copied" : state === "select" ? "Copying is blocked here: select the text and press Ctrl+C" : ""}
      </span>
    </span>
  );
}
