import { toErrorResponse } from "./responses";

/**
 * Runs a route handler's body and turns any thrown error into the API's error shape, so each
 * `route.ts` is "parse, call one lib function, respond" without its own try/catch.
 */
export async function handle(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return toErrorResponse(error);
  }
}
