"use client";

import { useState } from "react";
import { shortenTagPath } from "./tag-path";

/**
 * A tag path, shortened when long. The full path shows on hover (title) and on keyboard focus
 * (a tooltip drawn by CSS from `data-full`); Enter or a click expands it in place. Screen readers
 * always get the full path.
 */
export function TagPath({ path }: { path: string }) {
  const [expanded, setExpanded] = useState(false);
  const short = shortenTagPath(path);
  if (short === path) {
    return <code className="tag-path">{path}</code>;
  }
  return (
    <button
      type="button"
      className="tag-path tag-path-short"
      title={path}
      data-full={path}
      aria-expanded={expanded}
      aria-label={`Tag path ${path}`}
      onClick={() => setExpanded((value) => !value)}
    >
      <code>{expanded ? path : short}</code>
    </button>
  );
}
