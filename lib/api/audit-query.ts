import { z } from "zod";
import { AUDIT_ACTIONS } from "../auth/audit-log";
import { limitParam } from "./query";

const ACTION_LIST = new RegExp(`^(${AUDIT_ACTIONS.join("|")})(,(${AUDIT_ACTIONS.join("|")}))*$`);

/** `GET /api/audit?before=<id>&action=a,b&limit=`: newest first; `before` is the previous page's `nextBefore`. */
export const auditQuery = z.strictObject({
  before: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, "must be an entry id (the previous page's nextBefore)")
    .transform(Number)
    .optional(),
  action: z
    .string()
    .regex(ACTION_LIST, `must be a comma-separated list of ${AUDIT_ACTIONS.join(", ")}`)
    .transform((value) => value.split(","))
    .optional(),
  limit: limitParam(50, 200),
});
