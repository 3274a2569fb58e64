"use client";

import { useId, useState } from "react";
import { shortenTagPath } from "./tag-path";

/**
 * A tag path, shortened when long. The full path shows on hover (title) and on keyboard focus
 * (a tooltip drawn by CSS from `data-full`); Enter or a click expands it in place. The button's
 * name is what it shows (speech input users say what they see); screen readers also get the full
 * path, as its description.
 */
export function TagPath({ path }: { path: string }) {
  const [expanded, setExpanded] = useState(false);
  const fullId = useId();
  const short = shortenTagPath(path);
  if (short === path) {
    return <code className="tag-path">{path}</code>;
  }
  return (
    <>
      <button
        type="button"
        className="tag-path tag-path-short"
        title={path}
        data-full={path}
        aria-expanded={expanded}
        aria-describedby={fullId}
        onClick={() => setExpanded((value) => !value)}
      >
        <code>{expanded ? path : short}</code>
      </button>
      <span id={fullId} className="visually-hidden">
        Full tag path: {path}
      </span>
    </>
  );
}
