/**
 * Files a forge serves: each revision of a repository file (the same revision has the
 * same bytes wherever it is seen: branch, tag, commit, fork, `/raw/` or `/media/`),
 * issue and release attachments (with their names), source archives (ZIP, TAR.GZ and
 * git bundles, answered from the archive store behind a pre-signed URL), patches and
 * feeds. Also the pre-signed archive URL itself and its check.
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32 } from "../random";
import type { FileRef } from "../types";
import { sha40, type GitContent } from "./forge-git";
import type { Attachment, ForgeRepo } from "./forge-model";

export function revisionRef(g: GitContent, f: number, rev: number): FileRef {
  const file = g.files[f]!;
  const seed = hash32(file.seed, rev);
  return { format: file.format, bytes: fileBytes(file.format, seed), seed };
}

export function attachmentRef(a: Attachment): FileRef {
  return { format: a.format, bytes: fileBytes(a.format, a.seed), seed: a.seed, filename: a.name };
}

export type ArchiveExt = "zip" | "tar.gz" | "bundle";
const ARCHIVE_FORMAT: Record<ArchiveExt, FormatName> = { zip: "zip", "tar.gz": "targz", bundle: "bundle" };
const EXT_CODE: Record<ArchiveExt, number> = { zip: 1, "tar.gz": 2, bundle: 3 };

export function archiveRef(g: GitContent, commit: number, ext: ArchiveExt, filename: string): FileRef {
  const format = ARCHIVE_FORMAT[ext];
  const seed = hash32(g.seed, 0xa4c, commit, EXT_CODE[ext]);
  return { format, bytes: fileBytes(format, seed), seed, filename };
}

/** `census-v2021.zip`: the repository name and the ref (slashes as dashes, commits as 10 hex digits). */
export function archiveName(repo: ForgeRepo, refName: string, isCommit: boolean, ext: ArchiveExt): string {
  return `${repo.name}-${isCommit ? refName.slice(0, 10) : refName.replace(/\//g, "-")}.${ext}`;
}

const STORE = "/gitea-storage/repo-archive";

function signature(repoId: number, sha: string, ext: ArchiveExt, name: string): string {
  let h = 0;
  for (const ch of `${repoId}/${sha}.${ext}/${name}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return sha40(h, repoId, EXT_CODE[ext]) + sha40(h, repoId, 7).slice(0, 24);
}

/** Where `/archive/<ref>.<ext>` sends the browser: the archive store's pre-signed URL (valid five minutes). */
export function archiveStoreHref(repo: ForgeRepo, sha: string, ext: ArchiveExt, name: string): string {
  return `${STORE}/${repo.id}/${sha.slice(0, 2)}/${sha}.${ext}?response-content-disposition=${encodeURIComponent(`attachment; filename="${name}"`)}` +
    `&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=gitea%2F20240520%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20240520T120000Z` +
    `&X-Amz-Expires=300&X-Amz-SignedHeaders=host&X-Amz-Signature=${signature(repo.id, sha, ext, name)}`;
}

/** Parses a pre-signed archive URL; null when it is not one the forge handed out. */
export function parseArchiveStore(path: string, get: (k: string) => string | undefined): { repoId: number; sha: string; ext: ArchiveExt; name: string } | null {
  const m = /^\/gitea-storage\/repo-archive\/([1-9][0-9]{0,6})\/([0-9a-f]{2})\/([0-9a-f]{40})\.(zip|tar\.gz|bundle)$/.exec(path);
  if (!m || m[2] !== m[3]!.slice(0, 2)) return null;
  const disposition = /^attachment; filename="([^"]+)"$/.exec(get("response-content-disposition") ?? "");
  if (!disposition) return null;
  const ext = m[4] as ArchiveExt;
  const repoId = Number(m[1]);
  if (get("X-Amz-Signature") !== signature(repoId, m[3]!, ext, disposition[1]!)) return null;
  return { repoId, sha: m[3]!, ext, name: disposition[1]! };
}

export function patchRef(seed: number, kind: number): FileRef {
  const s = hash32(seed, 0xd1ff, kind);
  return { format: "diff", bytes: fileBytes("diff", s), seed: s };
}

export function feedRef(seed: number, atom: boolean): FileRef {
  const format = atom ? "atom" : "rss";
  const s = hash32(seed, 0xfeed, atom ? 2 : 1);
  return { format, bytes: fileBytes(format, s), seed: s };
}

/** A wiki page's Markdown source (`/wiki/raw/<Page>`). */
export function wikiRawRef(seed: number, filename: string): FileRef {
  const s = hash32(seed, 0x3a3);
  return { format: "md", bytes: fileBytes("md", s), seed: s, filename };
}
