import { formatBytes, formatInteger } from "@/lib/format";

/** Journey 5, "Collect": everything, the web archive, the manifest alone, or the request log. */
export function DownloadsPanel({
  crawlId,
  targets,
  targetBytes,
  cancelled,
  webArchive = true,
}: {
  crawlId: number;
  targets: number;
  targetBytes: number;
  cancelled: boolean;
  /** The crawl keeps a web archive (setting "Keep a web archive (WARC)"). */
  webArchive?: boolean;
}) {
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
        (URL, file, type, size, SHA-256, source page, tag path, WARC record).
      </p>
      {webArchive && !cancelled ? (
        <>
          <a className="button download-archive" href={`${base}/export.wacz`} download>
            <span aria-hidden="true">⤓ </span>Download web archive (WACZ)
          </a>
          <p className="panel-hint">
            Every request and response of the crawl as WARC/1.1, with its index and pages: opens in ReplayWeb.page or pywb.
          </p>
        </>
      ) : null}
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
