import { z } from "zod";
import { SETTINGS_TABLE, type ChoiceSettingRow, type NumberSettingRow, type SettingKey, type SettingRow } from "./settings-table";

/**
 * The zod schema of a crawl's `params`, built from settings-table.ts: one validator per row, its
 * range and messages from the row, its default the row's default. Strict: a misspelt setting is
 * refused, not ignored.
 */

type RowSchema<R> = R extends { kind: "number" }
  ? z.ZodDefault<z.ZodNumber>
  : R extends { kind: "boolean" }
    ? z.ZodDefault<z.ZodBoolean>
    : R extends ChoiceSettingRow<infer C>
      ? z.ZodDefault<z.ZodEnum<{ [K in C]: K }>>
      : never;

type ParamsShape = { [K in SettingKey]: RowSchema<(typeof SETTINGS_TABLE)[K]> };

function numberSchema(row: NumberSettingRow): z.ZodNumber {
  let schema = z.number();
  if (row.integer) schema = schema.int("must be a whole number");
  schema = row.minExclusive
    ? schema.gt(row.min, row.belowMessage ?? `must be above ${row.min}`)
    : schema.min(row.min, row.belowMessage ?? `must be at least ${row.min}`);
  schema = row.maxExclusive
    ? schema.lt(row.max, row.aboveMessage ?? `must be below ${row.max}`)
    : schema.max(row.max, row.aboveMessage ?? `must be at most ${row.max}`);
  return schema;
}

function rowSchema(row: SettingRow): z.ZodDefault<z.ZodType> {
  switch (row.kind) {
    case "number":
      return numberSchema(row).default(row.default);
    case "boolean":
      return z.boolean().default(row.default);
    case "choice":
      return z.enum(row.choices as [string, ...string[]], { message: `must be one of ${row.choices.join(", ")}` }).default(row.default);
  }
}

const shape = Object.fromEntries(
  (Object.keys(SETTINGS_TABLE) as SettingKey[]).map((key) => [key, rowSchema(SETTINGS_TABLE[key] as SettingRow)]),
) as unknown as ParamsShape;

/** The algorithm's settings (docs/SETTINGS.md): shown in the cockpit's "Advanced" section. */
export const algorithmParamsSchema = z.strictObject(shape);
