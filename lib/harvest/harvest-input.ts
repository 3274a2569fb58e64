import { z } from "zod";
import { InvalidRequestError } from "../errors";
import { zodFieldErrors } from "../field-errors";
import { networkPolicyRefusal } from "../store/commands/check-network-policy";
import { cronProblem, timeZoneProblem } from "./schedule";

/**
 * What the API accepts to create and change a harvest, each bad field named in a 400
 * (`fields`): a cron expression of five fields, a time zone Intl knows, a webhook URL that is
 * http(s) and, when it names an IP, one the server's network policy lets the worker reach
 * (a name is checked again on every delivery's connection: DNS may point it anywhere).
 */

const nameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const cronSchema = z
  .string()
  .trim()
  .max(200, "must be at most 200 characters")
  .superRefine((value, ctx) => {
    const problem = cronProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const timeZoneSchema = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100)
  .superRefine((value, ctx) => {
    const problem = timeZoneProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const webhookSchema = z
  .string()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "is not a valid URL" });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") ctx.addIssue({ code: "custom", message: `must be an http or https URL, not ${url.protocol}` });
    else if (url.username || url.password) ctx.addIssue({ code: "custom", message: "must not carry a user name or password" });
  });

export const createHarvestSchema = z
  .strictObject({
    /** A finished crawl to repeat: its settings become the harvest's, and it becomes the first run. */
    fromCrawlId: z.number().int("must be a whole number").positive("must be a crawl id").optional(),
    /** Or crawl settings (lib/crawler/crawl-config.ts) for a harvest that starts from nothing. */
    config: z.record(z.string(), z.unknown()).optional(),
    name: nameSchema.optional(),
    cron: cronSchema.nullable().default(null),
    timeZone: timeZoneSchema.default("UTC"),
    webhookUrl: webhookSchema.nullable().default(null),
    paused: z.boolean().default(false),
    /** Start a run now (after the crawl it comes from). @default false */
    runNow: z.boolean().default(false),
    /** Runs check the files earlier runs found with conditional requests (new bytes: changed; 404/410: gone). */
    checkKnownFiles: z.boolean().optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.fromCrawlId === undefined) === (value.config === undefined)) {
      ctx.addIssue({ code: "custom", path: ["fromCrawlId"], message: "or config: give exactly one (the crawl to repeat, or crawl settings)" });
    }
  });
export type CreateHarvestInput = z.output<typeof createHarvestSchema>;

export const updateHarvestSchema = z.strictObject({
  name: nameSchema.optional(),
  cron: cronSchema.nullable().optional(),
  timeZone: timeZoneSchema.optional(),
  webhookUrl: webhookSchema.nullable().optional(),
  paused: z.boolean().optional(),
  checkKnownFiles: z.boolean().optional(),
});
export type UpdateHarvestInput = z.output<typeof updateHarvestSchema>;

function parseWith<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new InvalidRequestError(zodFieldErrors(parsed.error, "is not a known field"), `Invalid ${what}`);
  return parsed.data;
}

/**
 * A webhook URL whose host is a literal IP (or localhost) must be one the server may reach: a
 * webhook is not a way to make the worker POST to its own private network.
 * @throws InvalidRequestError (field `webhookUrl`)
 */
export function checkWebhookReachable(webhookUrl: string | null | undefined, privateNetworks: readonly string[]): void {
  if (!webhookUrl) return;
  const refusal = networkPolicyRefusal(webhookUrl, { privateNetworks });
  if (refusal) throw new InvalidRequestError({ webhookUrl: refusal }, "Invalid harvest");
}

/** @throws InvalidRequestError naming every bad field */
export function parseCreateHarvest(input: unknown, privateNetworks: readonly string[]): CreateHarvestInput {
  const value = parseWith(createHarvestSchema, input, "harvest");
  checkWebhookReachable(value.webhookUrl, privateNetworks);
  return value;
}

/** @throws InvalidRequestError naming every bad field */
export function parseUpdateHarvest(input: unknown, privateNetworks: readonly string[]): UpdateHarvestInput {
  const value = parseWith(updateHarvestSchema, input, "harvest change");
  checkWebhookReachable(value.webhookUrl, privateNetworks);
  return value;
}
