"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import { apiFetch } from "./api-fetch";
import type { MetricPoint } from "./api-types";
import { crawlKeys, LIVE_POLL_MS } from "./use-crawls-query";

/** The API downsamples to this many points; the merged series is thinned past twice that. */
const MAX_POINTS = 2_000;

/**
 * The crawl's curve, fetched incrementally: each poll asks only for points after the last
 * one held (`?after=<requests>`) and appends them. A 100k-request crawl therefore costs one
 * downsampled fetch and then a few points per second, never the whole series again.
 */
export function useCrawlMetricsQuery(id: number, live: boolean) {
  return useQuery({
    queryKey: crawlKeys.metrics(id),
    queryFn: ({ client }) => fetchMetrics(client, id),
    refetchInterval: live ? LIVE_POLL_MS : false,
  });
}

async function fetchMetrics(client: QueryClient, id: number): Promise<MetricPoint[]> {
  const held = client.getQueryData<MetricPoint[]>(crawlKeys.metrics(id)) ?? [];
  const last = held.at(-1);
  const after = last ? `&after=${last.requests}` : "";
  const { points } = await apiFetch<{ points: MetricPoint[] }>(`/api/crawls/${id}/metrics?maxPoints=${MAX_POINTS}${after}`);
  if (points.length === 0) return held;
  return thinSeries(mergeMetricPoints(held, points), MAX_POINTS);
}

/** Appends points newer than the last held one (a point may be re-sent when `after` races a write). */
export function mergeMetricPoints(held: MetricPoint[], incoming: MetricPoint[]): MetricPoint[] {
  const lastRequests = held.at(-1)?.requests ?? -1;
  const fresh = incoming.filter((point) => point.requests > lastRequests);
  return fresh.length === 0 ? held : [...held, ...fresh];
}

/**
 * Keeps at most ~`max` points by dropping every other point of the older part, always keeping
 * the first and last points and every early-stopping window end (their slope must stay visible).
 */
export function thinSeries(points: MetricPoint[], max: number): MetricPoint[] {
  if (points.length <= 2 * max) return points;
  return points.filter(
    (point, index) => index === 0 || index === points.length - 1 || index % 2 === 0 || point.slope !== null,
  );
}
