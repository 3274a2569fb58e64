import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../lib/config";

const load = (env: Record<string, string>) => loadConfig({ DATABASE_URL: "file:/tmp/x.db", FORAGE_DATA_DIR: "/tmp/forage-data", ...env });

describe("storage settings (FORAGE_STORAGE_URL, FORAGE_S3_ENDPOINT, AWS_*)", () => {
  it("defaults to the local data folder", () => {
    expect(load({}).storage).toEqual({ kind: "local" });
  });

  it("reads a bucket, its prefix, an endpoint, a region and credentials", () => {
    expect(
      load({
        FORAGE_STORAGE_URL: "s3://forage-data/prod/crawls/",
        FORAGE_S3_ENDPOINT: "http://minio.internal:9000",
        AWS_ACCESS_KEY_ID: "AKIA",
        AWS_SECRET_ACCESS_KEY: "secret",
        AWS_REGION: "eu-west-3",
      }).storage,
    ).toEqual({
      kind: "s3",
      bucket: "forage-data",
      prefix: "prod/crawls",
      endpoint: "http://minio.internal:9000",
      region: "eu-west-3",
      credentials: { accessKeyId: "AKIA", secretAccessKey: "secret" },
    });
    expect(load({ FORAGE_STORAGE_URL: "s3://bucket" }).storage).toMatchObject({ bucket: "bucket", prefix: "", endpoint: null, region: "us-east-1", credentials: null });
  });

  it.each([
    ["s3:/bucket", "FORAGE_STORAGE_URL must be s3://bucket"],
    ["https://bucket.s3.amazonaws.com/x", "FORAGE_STORAGE_URL must be s3://bucket"],
    ["s3://Upper_Case", "FORAGE_STORAGE_URL must be s3://bucket"],
    ["s3://bucket/a/../b", "FORAGE_STORAGE_URL: the prefix"],
    ["s3://bucket/a//b", "FORAGE_STORAGE_URL: the prefix"],
  ])("refuses %s with a message naming the variable", (value, message) => {
    expect(() => load({ FORAGE_STORAGE_URL: value })).toThrow(ConfigError);
    expect(() => load({ FORAGE_STORAGE_URL: value })).toThrow(message);
  });

  it("refuses half a credential pair and an endpoint that is no URL", () => {
    expect(() => load({ FORAGE_STORAGE_URL: "s3://bucket", AWS_ACCESS_KEY_ID: "AKIA" })).toThrow("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together");
    expect(() => load({ FORAGE_STORAGE_URL: "s3://bucket", FORAGE_S3_ENDPOINT: "minio:9000" })).toThrow("FORAGE_S3_ENDPOINT");
  });
});
