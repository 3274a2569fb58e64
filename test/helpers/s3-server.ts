import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** An S3-compatible server on 127.0.0.1 (s3rver: objects as files in a temporary folder) with one bucket. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** The variables a Forage process needs to use it, with `prefix` as the key prefix. */
  env(prefix?: string): Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials: it checks SigV4 signatures against them. */
const ACCESS_KEY = "S3RVER";
const SECRET_KEY = "S3RVER";

export async function startS3Server(bucket = "forage-test"): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "forage-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = (await server.run()) as { address: string; port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: (prefix = "") => ({
      FORAGE_STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ""}`,
      FORAGE_S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: SECRET_KEY,
      AWS_REGION: "us-east-1",
    }),
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The S3 storage settings of {@link TestS3Server.env}, for code that builds storage directly. */
export function s3StorageConfig(server: TestS3Server, prefix = "") {
  return {
    kind: "s3" as const,
    bucket: server.bucket,
    prefix,
    endpoint: server.endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
  };
}
