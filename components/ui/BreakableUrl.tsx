import { Fragment } from "react";

/**
 * A URL that wraps where a reader expects, after "/", ".", "?", "&", "=", "-" or "_", never in the
 * middle of a word (its container sets `overflow-wrap: break-word`, the last resort for a very long word).
 */
export function BreakableUrl({ text }: { text: string }) {
  const parts = text.split(/(?<=[/.?&=_-])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
