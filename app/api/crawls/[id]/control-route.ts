import { getDb, getServerConfig } from "@/app/_server/db";
import { handle } from "@/lib/api/handle";
import { parseCrawlId } from "@/lib/api/ids";
import { jsonResponse } from "@/lib/api/responses";
import { requestControl, type ControlAction } from "@/lib/store";

/** `POST /api/crawls/:id/<action>`: the four control routes differ only by their action. */
export function controlRoute(action: ControlAction) {
  return async function POST(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
    return handle(async () => {
      const id = parseCrawlId((await params).id);
      return jsonResponse(await requestControl(await getDb(), getServerConfig(), id, action));
    });
  };
}
