import type { TargetFile } from "@/components/hooks/api-types";
import { DateTime } from "@/components/ui/DateTime";
import { fileNameOf, sitePath } from "@/components/ui/format";
import { mimeLabel } from "@/components/ui/mime";
import { formatBytes, formatInteger } from "@/lib/format";

/** `onPreview`: shows a file's preview (FilePreview); a file whose bytes showed another type is marked. */
export function TargetsTable({ targets, rootUrl, onPreview }: { targets: TargetFile[]; rootUrl: string; onPreview?: (target: TargetFile) => void }) {
  return (
    <div className="table-scroll">
      <table className="data-table responsive-table targets-table" aria-label="Target files">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Type</th>
            <th scope="col" className="num">Size</th>
            <th scope="col">Found on</th>
            <th scope="col" className="num">Group</th>
            <th scope="col" className="num">Request</th>
            <th scope="col">Fetched</th>
          </tr>
        </thead>
        <tbody>
          {targets.map((target) => (
            <tr key={target.id}>
              <td data-label="File" className="truncate-cell cell-wide cell-first file-cell">
                <a href={target.fileUrl} download title={`Download ${target.url}`} className="truncate">
                  {fileNameOf(target.url)}
                </a>
                <span className="cell-sub truncate" title={target.url}>
                  {sitePath(target.url, rootUrl)}
                </span>
                {onPreview ? (
                  <button type="button" className="button button-small" onClick={() => onPreview(target)} aria-label={`Preview ${fileNameOf(target.url)}`}>
                    Preview
                  </button>
                ) : null}
              </td>
              <td data-label="Type" title={target.detectedMime ? `${target.mime}; its bytes show ${target.detectedMime}` : target.mime} className="nowrap">
                {mimeLabel(target.mime)}
                {target.typeMatch === false && target.detectedMime ? (
                  <span className="cell-sub" data-testid="type-mismatch">
                    bytes: {mimeLabel(target.detectedMime)}
                  </span>
                ) : null}
              </td>
              <td className="num" data-label="Size">{formatBytes(target.bytes)}</td>
              <td data-label="Found on" className="truncate-cell cell-wide cell-last source-cell">
                {target.sourceUrl ? (
                  <a href={target.sourceUrl} rel="noreferrer noopener" target="_blank" title={target.sourceUrl} className="truncate">
                    {sitePath(target.sourceUrl, rootUrl)}
                  </a>
                ) : (
                  "–"
                )}
              </td>
              <td className="num" data-label="Group">{target.groupId === null ? "–" : `#${target.groupId}`}</td>
              <td className="num" data-label="Request">{formatInteger(target.requestSeq)}</td>
              <td data-label="Fetched" className="nowrap">
                <DateTime iso={target.fetchedAt} relative />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
