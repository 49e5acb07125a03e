import { z } from "zod";
import type { Money } from "../money/index.js";
import { currencyCode, decimalAmountText, positiveMinorUnits } from "./amount-text.js";
import { INTERVAL_UNITS, type IntervalUnit } from "./interval-units.js";
import { COLLECTION_METHODS, type CollectionMethod } from "./payment-link.js";
import type { BillingInterval } from "./periods.js";
import { checkPrice, priceFields, priceOfInput } from "./plan-price.js";
import type { PriceModel } from "./price-models.js";
import { storableText } from "./storable-text.js";

/**
 * A plan as sold: its validated create-plan body (snake_case, as the HTTP API receives it) and the
 * domain plan it becomes. Amounts are exact in minor units of the plan's currency; its price model
 * and price fields are checked in plan-price.ts. Every problem of a body is reported at once.
 */

export { currencyCode, decimalAmountText, positiveMinorUnits };

/**
 * How the card token is charged. `recurring`: the gateway stored the amount with the token and
 * GetnewPayment takes none. `autosave`: the merchant sends the amount (and a unique orderId) on
 * every charge.
 */
export const BILLING_MODES = ["recurring", "autosave"] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

export interface Plan {
  readonly id: string;
  readonly name: string;
  /**
   * The plan's amount in minor units of its currency: the price of one period (flat), of one unit
   * (per_unit) or of one package (package); 0 for tiered and volume plans, which their tiers price.
   * The price of a period at a quantity is priceOf(plan.price, quantity).
   */
  readonly amount: Money;
  /** How the price grows with the subscription's quantity (billing/price-models.ts). */
  readonly price: PriceModel;
  readonly intervalUnit: IntervalUnit;
  /** 1 to 365 units per period (3 months = quarterly). */
  readonly intervalCount: number;
  readonly trialDays: number;
  /** The gateway product this plan sells, when the merchant links one. */
  readonly productId?: string | null;
  readonly billingMode: BillingMode;
  /** What a new subscription uses unless its enrolment says otherwise (billing/payment-link.ts). */
  readonly collectionMethod: CollectionMethod;
  /** The trial starts without a card; the first charge after it goes out as a payment link. */
  readonly trialWithoutCard: boolean;
}

/** A validated plan before it is stored and given an id. */
export type PlanInput = Omit<Plan, "id">;

export const MAX_INTERVAL_COUNT = 365;
/**
 * Upper bound on trials. Note that a card token lives at most six months, so a trial longer than
 * that ends with an expired token unless the customer saves the card again.
 */
export const MAX_TRIAL_DAYS = 730;

const integer = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int({ error: `${field} must be a whole number` })
    .min(min, { error: `${field} must be at least ${min}` })
    .max(max, { error: `${field} must be at most ${max}` });

/**
 * The fields a plan may change after it is created (billing/plan-update.ts), checked as on
 * creation: none of them is part of what its subscriptions pay. No defaults here: the create body
 * adds them, an update leaves a missing field as it is.
 */
export const editablePlanFields = {
  name: z
    .string({ error: "name must be a string" })
    .trim()
    .min(1, { error: "name must not be empty" })
    .max(200, { error: "name must be at most 200 characters" })
    .check(storableText("name")),
  trial_days: integer("trial_days", 0, MAX_TRIAL_DAYS),
  product_id: z
    .string({ error: "product_id must be a string or null" })
    .trim()
    .min(1, { error: "product_id must not be empty" })
    .max(100, { error: "product_id must be at most 100 characters" })
    .check(storableText("product_id"))
    .nullish(),
  collection_method: z.enum(COLLECTION_METHODS, {
    error: `collection_method must be one of ${COLLECTION_METHODS.join(", ")}`,
  }),
  trial_without_card: z.boolean({ error: "trial_without_card must be true or false" }),
};

/** Where the plan may be sold; without `currencies`, any ISO 4217 currency is accepted. */
export interface PlanInputOptions {
  /** The currencies the gateway account takes (GATEWAY_CURRENCIES). */
  readonly currencies?: readonly string[];
}

const hasIssueAt = (issues: readonly { path?: readonly PropertyKey[] }[], field: string) =>
  issues.some((issue) => issue.path?.[0] === field);

/**
 * The body of "create a plan" (snake_case, as the HTTP API receives it). Amounts are decimal
 * strings converted exactly to minor units of the currency: "10.5" QAR is 1050 dirham, while
 * "10.505" QAR is refused rather than rounded. Unknown fields are refused so that a misspelt
 * optional field ("trial_day") cannot silently fall back to its default. Every problem is reported
 * at once: the cross-field checks (amounts against the currency, the price model's fields) run
 * even when other fields are wrong, so a body with several bad fields is answered with all of them.
 */
export function planInputSchema({ currencies }: PlanInputOptions = {}) {
  return z
    .strictObject(
      {
        name: editablePlanFields.name,
        amount: priceFields.amount,
        currency: currencyCode(currencies).describe(
          currencies
            ? `ISO 4217 code the gateway account takes: ${currencies.join(", ")} (GATEWAY_CURRENCIES)`
            : "ISO 4217 code",
        ),
        price_model: priceFields.price_model,
        tiers: priceFields.tiers,
        package_size: priceFields.package_size,
        interval: z.enum(INTERVAL_UNITS, { error: `interval must be one of ${INTERVAL_UNITS.join(", ")}` }),
        interval_count: integer("interval_count", 1, MAX_INTERVAL_COUNT).default(1),
        trial_days: editablePlanFields.trial_days.default(0),
        product_id: editablePlanFields.product_id,
        billing_mode: z
          .enum(BILLING_MODES, { error: `billing_mode must be one of ${BILLING_MODES.join(", ")}` })
          .default("recurring"),
        collection_method: editablePlanFields.collection_method.default("charge_automatically"),
        trial_without_card: editablePlanFields.trial_without_card.default(false),
      },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
      },
    )
    .superRefine(
      (input, ctx) => {
        checkPrice(input, ctx, !hasIssueAt(ctx.issues, "currency"));
        if (input.trial_without_card === true && !(Number(input.trial_days) > 0)) {
          ctx.addIssue({
            code: "custom",
            path: ["trial_without_card"],
            message: "trial_without_card needs trial_days of at least 1",
          });
        }
      },
      {
        // Also when other fields failed: each check looks only at fields that are well formed.
        when: ({ value }) => typeof value === "object" && value !== null,
      },
    )
    .transform((input): PlanInput => {
      const { amountMinor, price } = priceOfInput(input);
      return {
        name: input.name,
        amount: { minor: amountMinor, currency: input.currency },
        price,
        intervalUnit: input.interval,
        intervalCount: input.interval_count,
        trialDays: input.trial_days,
        productId: input.product_id ?? null,
        billingMode: input.billing_mode,
        collectionMethod: input.collection_method,
        trialWithoutCard: input.trial_without_card,
      };
    });
}

export class PlanInputError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid plan: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "PlanInputError";
  }
}

/**
 * A nested field's message names its whole path: "up_to must be …" at tiers.1.up_to reads
 * "tiers.1.up_to must be …", so the message alone says which tier is wrong.
 */
function qualified(path: readonly PropertyKey[], message: string): string {
  const leaf = String(path.at(-1));
  return path.length > 1 && message.startsWith(`${leaf} `)
    ? `${path.join(".")}${message.slice(leaf.length)}`
    : message;
}

/** Validates a create-plan body; throws PlanInputError listing every problem by field. */
export function parsePlanInput(input: unknown, options: PlanInputOptions = {}): PlanInput {
  const result = planInputSchema(options).safeParse(input);
  if (result.success) return result.data;
  throw new PlanInputError(
    result.error.issues.map((issue) => ({
      field: issue.path.join("."),
      message: qualified(issue.path, issue.message),
    })),
  );
}

export function planInterval(plan: Pick<Plan, "intervalUnit" | "intervalCount">): BillingInterval {
  return { unit: plan.intervalUnit, count: plan.intervalCount };
}
