import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { listGrowingObjects, openGrowingObject } from "./growing-object";
import type { ObjectStorage } from "./object-storage";

/**
 * Copies the objects under `prefix` into `root` (a worker's data folder) at their keys' paths,
 * skipping files already there at their full size: a replay of a crawl another machine ran
 * reads its pages and target files where the replay fetcher expects them. Returns how many files
 * it copied. Nothing to do for the local folder.
 */
export async function copyPrefixToFolder(storage: ObjectStorage, prefix: string, root: string): Promise<number> {
  if (storage.kind === "local") return 0;
  let copied = 0;
  for (const object of await listGrowingObjects(storage, prefix)) {
    const target = path.join(root, ...object.key.split("/"));
    const local = await fs.promises.stat(target).catch(() => null);
    if (local && local.size >= object.bytes) continue;
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.copy.tmp`;
    await pipeline(await openGrowingObject(storage, object.key), fs.createWriteStream(tmp));
    await fs.promises.rename(tmp, target);
    copied += 1;
  }
  return copied;
}
