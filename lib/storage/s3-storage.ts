import fs from "node:fs";
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { checkKey, checkPrefix, ObjectNotFoundError, type ByteRange, type ObjectStorage, type StoredObjectInfo } from "./object-storage";

export interface S3StorageOptions {
  bucket: string;
  /** Key prefix inside the bucket, without slashes at either end ("" for none). */
  prefix: string;
  /** An S3-compatible server's URL (MinIO, Ceph, Garage…): addressed path-style. Null: AWS. */
  endpoint: string | null;
  region: string;
  /** Null: the SDK's default chain (instance roles…). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

/** Bodies up to this size go as one PutObject; larger streams as a multipart upload of parts this size. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * Objects in an S3-compatible bucket through the official SDK: streamed both ways, ranged GETs
 * for a record inside a WARC file, multipart uploads (lib-storage) for large files.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = "s3" as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums on every request are an SDK default that some S3-compatible servers refuse.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // A connection that stalls fails (and the SDK retries it) instead of holding a worker or a
      // download for ever: no S3 request of Forage legitimately goes a minute without a byte.
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000 },
    });
  }

  get location(): string {
    return `s3://${this.options.bucket}${this.options.prefix ? `/${this.options.prefix}` : ""}`;
  }

  private objectKey(key: string): string {
    const safe = checkKey(key);
    return this.options.prefix ? `${this.options.prefix}/${safe}` : safe;
  }

  private objectPrefix(prefix: string): string {
    const safe = checkPrefix(prefix);
    return this.options.prefix ? `${this.options.prefix}/${safe}` : safe;
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const Key = this.objectKey(key);
    if (Buffer.isBuffer(body) && body.length <= PART_BYTES) {
      await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key, Body: body, ContentLength: body.length }));
      return;
    }
    const upload = new Upload({ client: this.client, params: { Bucket: this.options.bucket, Key, Body: body }, partSize: PART_BYTES, queueSize: 2 });
    await upload.done();
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const { size } = await fs.promises.stat(localPath);
    if (size <= PART_BYTES) await this.put(key, await fs.promises.readFile(localPath));
    else await this.put(key, fs.createReadStream(localPath));
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    if (range && range.length === 0) {
      if (!(await this.head(key))) throw new ObjectNotFoundError(key);
      return Readable.from([]);
    }
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.offset}-${range.offset + range.length - 1}` } : {}),
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.get(key, range)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async head(key: string): Promise<{ bytes: number } | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      return { bytes: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (checkPrefix(prefix) === "") throw new Error("refusing to delete the whole storage");
    for (;;) {
      const keys = await this.listKeys(this.objectPrefix(prefix), 1000);
      if (keys.length === 0) return;
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: keys.map((k) => ({ Key: k.Key })), Quiet: true } }));
    }
  }

  async list(prefix: string): Promise<StoredObjectInfo[]> {
    const strip = this.options.prefix ? this.options.prefix.length + 1 : 0;
    return (await this.listKeys(this.objectPrefix(prefix), Infinity)).map((k) => ({ key: k.Key.slice(strip), bytes: k.Size }));
  }

  private async listKeys(prefix: string, limit: number): Promise<Array<{ Key: string; Size: number }>> {
    const out: Array<{ Key: string; Size: number }> = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const item of page.Contents ?? []) if (item.Key) out.push({ Key: item.Key, Size: Number(item.Size ?? 0) });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token && out.length < limit);
    return out.sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : 0));
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound";
  return false;
}
