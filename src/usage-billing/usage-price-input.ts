import { z } from "zod";
import { PRICE_MODELS, type PriceModel } from "../billing/index.js";
// Not re-exported by billing/index.ts: the plan's own price fields, which a usage price shares.
import { checkPrice, priceFields, priceOfInput } from "../billing/plan-price.js";
import { UsagePriceInputError } from "./errors.js";

/**
 * Rule: the body of "set a usage price" is a price exactly as a plan's (billing/plan-price.ts:
 * `price_model` decides which of `amount`, `tiers` and `package_size` it takes and refuses the
 * others), except that price_model defaults to per_unit, what usage is mostly priced by. Amounts are
 * decimal strings in the PLAN's currency, converted exactly to its minor units, so the body is
 * judged twice: its shape by the route (usagePriceBody), its amounts once the plan is known
 * (parseUsagePriceInput). Every problem is reported at once, by field.
 */

const fields = {
  price_model: z
    .enum(PRICE_MODELS, { error: `price_model must be one of ${PRICE_MODELS.join(", ")}` })
    .default("per_unit")
    .describe("How the period's usage is priced (default per_unit)"),
  amount: priceFields.amount.describe(
    "Price of one unit (per_unit), of one package (package) or of the period whatever its usage (flat); not taken for tiered and volume",
  ),
  tiers: priceFields.tiers,
  package_size: priceFields.package_size,
};

const strict = {
  error: (issue: { code: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys" ? `unknown field(s): ${(issue.keys ?? []).join(", ")}` : undefined,
};

const isObject = ({ value }: { value: unknown }) => typeof value === "object" && value !== null;

/** The body's shape, whatever the currency: which fields the price model needs, tiers in order. */
export const usagePriceBody = z
  .strictObject(fields, strict)
  .superRefine((input, ctx) => checkPrice(input, ctx, false), { when: isObject });

export type UsagePriceBody = z.input<typeof usagePriceBody>;

export interface UsagePriceInput {
  /** The amount column: a unit's, a package's or the period's price; 0 for tiered and volume. */
  readonly amountMinor: number;
  readonly price: PriceModel;
}

/** "up_to must be …" at tiers.1.up_to reads "tiers.1.up_to must be …": the message says which tier. */
function qualified(path: readonly PropertyKey[], message: string): string {
  const leaf = String(path.at(-1));
  return path.length > 1 && message.startsWith(`${leaf} `)
    ? `${path.join(".")}${message.slice(leaf.length)}`
    : message;
}

/** Validates a body against the plan's currency; throws UsagePriceInputError listing every problem. */
export function parseUsagePriceInput(input: unknown, currency: string): UsagePriceInput {
  const schema = z
    .strictObject(fields, strict)
    .superRefine((body, ctx) => checkPrice({ ...body, currency }, ctx, true), { when: isObject })
    .transform((body) => priceOfInput({ ...body, currency }));
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new UsagePriceInputError(
    result.error.issues.map((issue) => ({
      field: issue.path.join("."),
      message: qualified(issue.path, issue.message),
    })),
  );
}
