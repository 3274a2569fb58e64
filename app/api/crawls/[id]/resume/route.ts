import { controlRoute } from "../control-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = controlRoute("resume");
