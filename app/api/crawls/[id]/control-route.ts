import { guarded } from "@/app/_server/guarded";
import { getDb, getServerConfig } from "@/app/_server/db";
import { parseCrawlId } from "@/lib/api/ids";
import { jsonResponse } from "@/lib/api/responses";
import { requestControl, type ControlAction } from "@/lib/store";

/** `POST /api/crawls/:id/<action>`: the four control routes differ only by their action. */
export function controlRoute(action: ControlAction) {
  return async function POST(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
    return guarded(request, async () => {
      const id = parseCrawlId((await params).id);
      return jsonResponse(await requestControl(await getDb(), getServerConfig(), id, action));
    });
  };
}
