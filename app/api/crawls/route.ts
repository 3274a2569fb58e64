import { getDb } from "@/app/_server/db";
import { jsonResponse, toErrorResponse } from "@/lib/api/responses";
import { listCrawls } from "@/lib/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    return jsonResponse({ crawls: await listCrawls(await getDb()) });
  } catch (error) {
    return toErrorResponse(error);
  }
}
