/**
 * The control state machine: what pause / resume / stop / cancel do to a crawl, decided from
 * the row alone (pure, so every branch is testable without a worker).
 *
 * Who owns the row decides who applies the action:
 * - nobody holds it (queued; paused and released; or a lease that expired because its worker
 *   died): the API applies the action itself, at once;
 * - a worker holds a live lease (running; or paused but kept in memory): the API only records
 *   `pendingControl`, and the worker applies it at its next check (≤ 1 s), then clears it.
 *
 * | status \ action    | pause                   | resume                      | stop                       | cancel                      |
 * |--------------------|-------------------------|-----------------------------|----------------------------|-----------------------------|
 * | queued             | → paused                | 409 (not paused)            | → finished (user-stop)     | → cancelled, files discarded|
 * | running, held      | pending pause           | withdraws a pending pause,  | pending stop               | pending cancel              |
 * |                    |                         | else 409 (not paused)       |                            |                             |
 * | running, lease gone| → paused (released)     | 409 (not paused)            | → finished (user-stop)     | → cancelled, files discarded|
 * | paused, held       | withdraws a pending     | pending resume              | pending stop               | pending cancel              |
 * |                    | resume, else 409        |                             |                            |                             |
 * | paused, released   | 409 (already paused)    | → queued (a worker resumes  | → finished (user-stop)     | → cancelled, files discarded|
 * |                    |                         | it from its checkpoint)     |                            |                             |
 * | finished / failed /| 409: the crawl is over; clone its settings to run again                                                |
 * | cancelled          |                                                                                                       |
 *
 * Pending actions only get stronger: stop may replace a pending pause, cancel replaces
 * anything, but pause or stop never replace a pending cancel (409), and pause never replaces
 * a pending stop (409). Repeating the pending action is accepted and changes nothing, so a
 * double click is harmless.
 */
import { InvalidStateError } from "../../errors";

export const CONTROL_ACTIONS = ["pause", "resume", "stop", "cancel"] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

/** The columns the decision reads. */
export interface ControlState {
  id: number;
  status: string;
  pendingControl: string | null;
  workerId: string | null;
  leaseExpiresAt: Date | null;
}

/** Columns to write (a subset of the Crawl row). */
export interface ControlUpdate {
  status?: string;
  pendingControl?: string | null;
  stopReason?: string;
  finishedAt?: Date;
  workerId?: null;
  leaseExpiresAt?: null;
}

export interface ControlPlan {
  /** Null when nothing changes (the same action is already pending). */
  update: ControlUpdate | null;
  event: { kind: string; message: string } | null;
  /** Cancel applied directly: remove the crawl's files. */
  discardFiles: boolean;
}

const STRENGTH: Record<string, number> = { resume: 0, pause: 1, stop: 2, cancel: 3 };

const RELEASED = { pendingControl: null, workerId: null, leaseExpiresAt: null } as const;

/** Decides what `action` does to `crawl` at time `nowMs`. @throws InvalidStateError when it does not apply. */
export function planControl(crawl: ControlState, action: ControlAction, nowMs: number): ControlPlan {
  const name = `Crawl ${crawl.id}`;
  const held = crawl.workerId !== null && crawl.leaseExpiresAt !== null && crawl.leaseExpiresAt.getTime() > nowMs;
  switch (crawl.status) {
    case "queued":
      if (action === "resume") throw new InvalidStateError(`${name} is queued, not paused: it starts as soon as a worker is free`);
      return applyNow(action, "before it started");
    case "running":
      if (!held) {
        if (action === "resume") throw new InvalidStateError(`${name} is running, not paused`);
        return applyNow(action, "while no worker held it");
      }
      if (action === "resume") {
        if (crawl.pendingControl !== "pause") throw new InvalidStateError(`${name} is running, not paused`);
        return { update: { pendingControl: null }, event: { kind: "control-requested", message: "Pause withdrawn before the worker applied it" }, discardFiles: false };
      }
      return requestFromWorker(name, crawl.pendingControl, action);
    case "paused":
      if (!held) {
        if (action === "pause") throw new InvalidStateError(`${name} is already paused`);
        if (action === "resume") {
          return { update: { status: "queued", ...RELEASED }, event: { kind: "resumed", message: "Resumed: waiting for a worker to continue the crawl" }, discardFiles: false };
        }
        return applyNow(action, "while paused");
      }
      if (action === "pause") {
        if (crawl.pendingControl !== "resume") throw new InvalidStateError(`${name} is already paused`);
        return { update: { pendingControl: null }, event: { kind: "control-requested", message: "Resume withdrawn before the worker applied it" }, discardFiles: false };
      }
      return requestFromWorker(name, crawl.pendingControl, action);
    case "finished":
    case "failed":
    case "cancelled":
      throw new InvalidStateError(
        `${name} is ${crawl.status === "finished" ? "finished" : crawl.status}: there is nothing to ${action}; clone its settings to run it again`,
      );
    default:
      throw new InvalidStateError(`${name} has an unknown status "${crawl.status}"`);
  }
}

/** Changes a crawl no worker holds. */
function applyNow(action: Exclude<ControlAction, "resume">, when: string): ControlPlan {
  const finishedAt = new Date();
  switch (action) {
    case "pause":
      return { update: { status: "paused", ...RELEASED }, event: { kind: "paused", message: `Paused ${when}` }, discardFiles: false };
    case "stop":
      return {
        update: { status: "finished", stopReason: "user-stop", finishedAt, ...RELEASED },
        event: { kind: "stopped", message: `Stopped by user ${when}` },
        discardFiles: false,
      };
    case "cancel":
      return {
        update: { status: "cancelled", stopReason: "cancelled", finishedAt, ...RELEASED },
        event: { kind: "cancelled", message: `Cancelled ${when}; its files were discarded` },
        discardFiles: true,
      };
  }
}

/** Records the action for the worker that holds the crawl. */
function requestFromWorker(name: string, pending: string | null, action: ControlAction): ControlPlan {
  if (pending === action) return { update: null, event: null, discardFiles: false };
  if (pending !== null && (STRENGTH[pending] ?? 0) > (STRENGTH[action] ?? 0)) {
    const doing = pending === "cancel" ? "being cancelled" : "stopping";
    throw new InvalidStateError(`${name} is already ${doing}: ${action} no longer applies`);
  }
  const label = action[0]!.toUpperCase() + action.slice(1);
  return {
    update: { pendingControl: action },
    event: { kind: "control-requested", message: `${label} requested: the worker applies it within a second` },
    discardFiles: false,
  };
}
