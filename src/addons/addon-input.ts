import { z } from "zod";
import { currencyCode, type PriceModel, storableText } from "../billing/index.js";
// Not re-exported by billing/index.ts: the plan's own price fields, which an add-on shares.
import { checkPrice, priceFields, priceOfInput } from "../billing/plan-price.js";
import type { Money } from "../money/index.js";

/**
 * Rule: the body of "create an add-on" (snake_case, as the API receives it) is a code, a name, a
 * currency and a price exactly as a plan's (billing/plan-price.ts: `price_model` decides which of
 * `amount`, `tiers` and `package_size` it takes, amounts exact in minor units of the currency, one
 * the gateway account takes). No interval: an add-on is billed each period of whatever plan it is
 * on; no billing_mode: only subscriptions whose charges can carry any amount take add-ons
 * (attach-rules.ts). The code is taken exactly as sent (1-64 of a-z, 0-9, _ . -), so it always
 * means one add-on. Unknown fields are refused; every problem is reported at once, by field.
 */

export const ADDON_CODE = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
const CODE_RULE = "1-64 of a-z, 0-9, _, . and -, starting with a letter or a digit";

export const addonCode = z
  .string({ error: "code must be a string" })
  .regex(ADDON_CODE, { error: `code must be ${CODE_RULE}` });

/** A validated add-on before it is stored and given an id. */
export interface AddonInput {
  readonly code: string;
  readonly name: string;
  /** The amount column: a period's, a unit's or a package's price; 0 for tiered and volume. */
  readonly amount: Money;
  readonly price: PriceModel;
}

export interface AddonInputOptions {
  /** The currencies the gateway account takes (GATEWAY_CURRENCIES). */
  readonly currencies?: readonly string[];
}

const hasIssueAt = (issues: readonly { path?: readonly PropertyKey[] }[], field: string) =>
  issues.some((issue) => issue.path?.[0] === field);

export function addonInputSchema({ currencies }: AddonInputOptions = {}) {
  return z
    .strictObject(
      {
        code: addonCode.describe(`${CODE_RULE}; never changes`),
        name: z
          .string({ error: "name must be a string" })
          .trim()
          .min(1, { error: "name must not be empty" })
          .max(200, { error: "name must be at most 200 characters" })
          .check(storableText("name"))
          .describe("Shown on the charge's line"),
        currency: currencyCode(currencies).describe(
          "ISO 4217 code; only subscriptions whose plan is in it take the add-on",
        ),
        price_model: priceFields.price_model,
        amount: priceFields.amount,
        tiers: priceFields.tiers,
        package_size: priceFields.package_size,
      },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
      },
    )
    .superRefine((input, ctx) => checkPrice(input, ctx, !hasIssueAt(ctx.issues, "currency")), {
      // Also when other fields failed: each check looks only at fields that are well formed.
      when: ({ value }) => typeof value === "object" && value !== null,
    })
    .transform((input): AddonInput => {
      const { amountMinor, price } = priceOfInput(input);
      return {
        code: input.code,
        name: input.name,
        amount: { minor: amountMinor, currency: input.currency },
        price,
      };
    });
}

export class AddonInputError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid add-on: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "AddonInputError";
  }
}

/** "up_to must be …" at tiers.1.up_to reads "tiers.1.up_to must be …": the message says which tier. */
function qualified(path: readonly PropertyKey[], message: string): string {
  const leaf = String(path.at(-1));
  return path.length > 1 && message.startsWith(`${leaf} `)
    ? `${path.join(".")}${message.slice(leaf.length)}`
    : message;
}

/** Validates a create-add-on body; throws AddonInputError listing every problem by field. */
export function parseAddonInput(input: unknown, options: AddonInputOptions = {}): AddonInput {
  const result = addonInputSchema(options).safeParse(input);
  if (result.success) return result.data;
  throw new AddonInputError(
    result.error.issues.map((issue) => ({
      field: issue.path.join("."),
      message: qualified(issue.path, issue.message),
    })),
  );
}
