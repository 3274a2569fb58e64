import { formatBytes, formatInteger } from "@/lib/format";

/** Journey 5, "Collect": everything, the manifest alone, or the request log. */
export function DownloadsPanel({ crawlId, targets, targetBytes, cancelled }: { crawlId: number; targets: number; targetBytes: number; cancelled: boolean }) {
  const base = `/api/crawls/${crawlId}`;
  return (
    <div className="downloads" data-testid="downloads">
      <h3>Downloads</h3>
      {cancelled ? <p className="panel-hint">This crawl was cancelled: its files were discarded.</p> : null}
      <a className="button button-primary download-main" href={`${base}/export.zip`} download>
        <span aria-hidden="true">⤓ </span>Download all targets (ZIP)
      </a>
      <p className="panel-hint">
        {formatInteger(targets)} files, {formatBytes(targetBytes)}, with <code>manifest.csv</code> and <code>manifest.json</code>{" "}
        (URL, file, type, size, SHA-256, source page, tag path).
      </p>
      <ul className="download-links">
        <li>
          <a href={`${base}/manifest.csv`} download>
            Manifest (CSV)
          </a>
        </li>
        <li>
          <a href={`${base}/manifest.json`} download>
            Manifest (JSON)
          </a>
        </li>
        <li>
          <a href={`${base}/requests.csv`} download>
            Request log (CSV)
          </a>
        </li>
      </ul>
    </div>
  );
}
