import { z } from "zod";
import { isCurrency, type Money, MoneyFormatError, toMinor } from "../money/index.js";
import { type BillingInterval, INTERVAL_UNITS, type IntervalUnit } from "./periods.js";
import { storableText } from "./storable-text.js";

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
  /** Price of one period, in minor units of its currency. */
  readonly amount: Money;
  readonly intervalUnit: IntervalUnit;
  /** 1 to 365 units per period (3 months = quarterly). */
  readonly intervalCount: number;
  readonly trialDays: number;
  /** The gateway product this plan sells, when the merchant links one. */
  readonly productId?: string | null;
  readonly billingMode: BillingMode;
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
 * The body of "create a plan" (snake_case, as the HTTP API receives it). The amount is a decimal
 * string converted exactly to minor units of the currency: "10.5" QAR is 1050 dirham, while
 * "10.505" QAR is refused rather than rounded. Unknown fields are refused so that a misspelt
 * optional field ("trial_day") cannot silently fall back to its default.
 */
export const planInputSchema = z
  .strictObject(
    {
      name: z
        .string({ error: "name must be a string" })
        .trim()
        .min(1, { error: "name must not be empty" })
        .max(200, { error: "name must be at most 200 characters" })
        .check(storableText("name")),
      amount: z.string({ error: 'amount must be a decimal string such as "100.00"' }),
      currency: z
        .string({ error: "currency must be a string" })
        .refine(isCurrency, { error: "currency must be an ISO 4217 code such as QAR" }),
      interval: z.enum(INTERVAL_UNITS, { error: `interval must be one of ${INTERVAL_UNITS.join(", ")}` }),
      interval_count: integer("interval_count", 1, MAX_INTERVAL_COUNT).default(1),
      trial_days: integer("trial_days", 0, MAX_TRIAL_DAYS).default(0),
      product_id: z
        .string({ error: "product_id must be a string or null" })
        .trim()
        .min(1, { error: "product_id must not be empty" })
        .max(100, { error: "product_id must be at most 100 characters" })
        .check(storableText("product_id"))
        .nullish(),
      billing_mode: z
        .enum(BILLING_MODES, { error: `billing_mode must be one of ${BILLING_MODES.join(", ")}` })
        .default("recurring"),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
    },
  )
  .transform((input, ctx): PlanInput => {
    let minor: number;
    try {
      minor = toMinor(input.amount, input.currency);
    } catch (error) {
      if (!(error instanceof MoneyFormatError)) throw error;
      ctx.addIssue({ code: "custom", path: ["amount"], message: error.message });
      return z.NEVER;
    }
    // The gateway cannot take a zero charge; a free plan is a trial, not a price.
    if (minor <= 0) {
      ctx.addIssue({ code: "custom", path: ["amount"], message: "amount must be greater than zero" });
      return z.NEVER;
    }
    return {
      name: input.name,
      amount: { minor, currency: input.currency },
      intervalUnit: input.interval,
      intervalCount: input.interval_count,
      trialDays: input.trial_days,
      productId: input.product_id ?? null,
      billingMode: input.billing_mode,
    };
  });

export class PlanInputError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid plan: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "PlanInputError";
  }
}

/** Validates a create-plan body; throws PlanInputError listing every problem by field. */
export function parsePlanInput(input: unknown): PlanInput {
  const result = planInputSchema.safeParse(input);
  if (result.success) return result.data;
  throw new PlanInputError(
    result.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
  );
}

export function planInterval(plan: Pick<Plan, "intervalUnit" | "intervalCount">): BillingInterval {
  return { unit: plan.intervalUnit, count: plan.intervalCount };
}
