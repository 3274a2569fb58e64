import type { Db } from "../store/prisma-client";
import { getChangeCounts } from "../store/queries/get-crawl-changes";
import type { ChangeCounts } from "../store/recrawl-store";

/** The JSON a harvest's webhook receives when a run ends (docs/API.md "Webhooks"). */
export interface RunEndedSummary {
  event: "harvest.run.ended";
  harvest: { id: number; name: string };
  run: {
    id: number;
    status: string;
    stopReason: string | null;
    stopDetail: string | null;
    /** The run it followed (`after`), null for a first crawl. */
    after: number | null;
    requests: number;
    targets: number;
    startedAt: string | null;
    finishedAt: string | null;
  };
  /** Null when the run wrote no change report (failed, cancelled). */
  changes: ChangeCounts | null;
  links: { cockpit: string; filesZip: string; newAndChangedZip: string; manifestCsv: string; changes: string };
}

/** Builds the summary of an ended run; links are absolute, from FORAGE_PUBLIC_URL (`publicOrigin`). */
export async function buildRunEndedSummary(db: Db, crawlId: number, publicOrigin: string): Promise<RunEndedSummary | null> {
  const crawl = await db.crawl.findUnique({
    where: { id: crawlId },
    select: {
      id: true,
      config: true,
      status: true,
      stopReason: true,
      stopDetail: true,
      requestsCount: true,
      targetsCount: true,
      startedAt: true,
      finishedAt: true,
      harvest: { select: { id: true, name: true } },
    },
  });
  if (!crawl?.harvest) return null;
  const after = (JSON.parse(crawl.config) as { after?: number | null }).after ?? null;
  const api = `${publicOrigin}/api/crawls/${crawl.id}`;
  return {
    event: "harvest.run.ended",
    harvest: crawl.harvest,
    run: {
      id: crawl.id,
      status: crawl.status,
      stopReason: crawl.stopReason,
      stopDetail: crawl.stopDetail,
      after,
      requests: crawl.requestsCount,
      targets: crawl.targetsCount,
      startedAt: crawl.startedAt?.toISOString() ?? null,
      finishedAt: crawl.finishedAt?.toISOString() ?? null,
    },
    changes: await getChangeCounts(db, crawl.id),
    links: {
      cockpit: `${publicOrigin}/crawls/${crawl.id}`,
      filesZip: `${api}/export.zip`,
      newAndChangedZip: `${api}/export.zip?changes=new,changed`,
      manifestCsv: `${api}/manifest.csv`,
      changes: `${api}/changes`,
    },
  };
}
