import type { MimeCount } from "@/components/hooks/api-types";
import { mimeLabel } from "@/components/ui/mime";
import { formatBytes, formatInteger } from "@/lib/format";

/** Targets per MIME type with inline bars; choosing a type filters the file list. */
export function MimeBreakdown({ mimeTypes, selected, onSelect }: { mimeTypes: MimeCount[]; selected: string | null; onSelect: (mime: string | null) => void }) {
  const max = Math.max(1, ...mimeTypes.map((m) => m.count));
  return (
    <div className="mime-breakdown">
      <h3 id="by-mime-title">Targets by MIME type</h3>
      {mimeTypes.length === 0 ? (
        <p className="panel-hint">No target yet.</p>
      ) : (
        <table className="data-table compact" aria-labelledby="by-mime-title">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col" className="num">Files</th>
              <th scope="col" className="num">Size</th>
            </tr>
          </thead>
          <tbody>
            {mimeTypes.map((mime) => (
              <tr key={mime.mime} className={selected === mime.mime ? "row-selected" : undefined}>
                <td>
                  <button
                    type="button"
                    className="link-button mime-filter"
                    aria-pressed={selected === mime.mime}
                    onClick={() => onSelect(selected === mime.mime ? null : mime.mime)}
                    title={selected === mime.mime ? "Show all files" : `Show only ${mime.mime} files`}
                  >
                    {mimeLabel(mime.mime)}
                  </button>
                  {mimeLabel(mime.mime) !== mime.mime ? <span className="cell-sub mono-sub">{mime.mime}</span> : null}
                  <span className="bar" aria-hidden="true">
                    <span style={{ width: `${(100 * mime.count) / max}%` }} />
                  </span>
                </td>
                <td className="num">{formatInteger(mime.count)}</td>
                <td className="num">{formatBytes(mime.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
