"use client";

import { useRouter } from "next/navigation";
import { useCreateCrawlMutation } from "@/components/hooks/use-crawl-mutations";
import { demoCrawlSettings } from "./demo-crawl";

/** Starts a crawl of the built-in demo website and opens its cockpit. */
export function DemoCrawlButton({ demoPort, className = "button button-primary button-large" }: { demoPort: number; className?: string }) {
  const router = useRouter();
  const create = useCreateCrawlMutation();
  const start = () =>
    create.mutate(demoCrawlSettings(demoPort), {
      onSuccess: ({ id }) => router.push(`/crawls/${id}`),
    });
  return (
    <>
      <button type="button" className={className} onClick={start} disabled={create.isPending || create.isSuccess}>
        {create.isPending || create.isSuccess ? "Starting the demo crawl…" : "Try the demo crawl"}
      </button>
      {create.error ? (
        <p role="alert" className="error-box">
          Could not start the demo crawl: {create.error.message}
        </p>
      ) : null}
    </>
  );
}
