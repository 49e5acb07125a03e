import { z } from "zod";
import { isCurrency, type Money, MoneyFormatError, toMinor } from "../money/index.js";
import { INTERVAL_UNITS, type IntervalUnit } from "./interval-units.js";
import { COLLECTION_METHODS, type CollectionMethod } from "./payment-link.js";
import type { BillingInterval } from "./periods.js";
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

/** Where the plan may be sold; without `currencies`, any ISO 4217 currency is accepted. */
export interface PlanInputOptions {
  /** The currencies the gateway account takes (GATEWAY_CURRENCIES). */
  readonly currencies?: readonly string[];
}

/** A plain, unsigned decimal: digits, then optionally a point and more digits. */
const PLAIN_DECIMAL = /^\d+(\.\d*)?$/;

/**
 * A decimal amount's own text, before its currency is known: exactly a decimal, nothing around it.
 * Money parsing forgives surrounding whitespace (gateway replies carry it), but a price a person
 * sends with a stray space is refused rather than silently changed. `field` names it in messages.
 */
export function decimalAmountText(field = "amount") {
  return z.string({ error: `${field} must be a decimal string such as "100.00"` }).check((payload) => {
    const text = payload.value;
    const shown = JSON.stringify(text);
    let message: string | undefined;
    if (text.trim() !== text)
      message = `${field} ${shown} has spaces around it; send the number alone, e.g. "100.00"`;
    else if (text.startsWith("-") && PLAIN_DECIMAL.test(text.slice(1)))
      message = `${field} ${shown} must not be negative`;
    else if (!PLAIN_DECIMAL.test(text))
      message = `${field} ${shown} is not a decimal number such as "100.00"`;
    if (message) payload.issues.push({ code: "custom", input: text, message });
  });
}

/** An ISO 4217 code, and one of `currencies` (GATEWAY_CURRENCIES) when given. */
export function currencyCode(currencies: readonly string[] | undefined) {
  const allowed = currencies?.join(", ");
  return z.string({ error: "currency must be a string" }).check((payload) => {
    const code = payload.value;
    let message: string | undefined;
    if (!isCurrency(code)) message = "currency must be an ISO 4217 code such as QAR";
    else if (currencies && !currencies.includes(code))
      message = `currency ${code} is not one the gateway account takes; allowed: ${allowed} (GATEWAY_CURRENCIES)`;
    if (message) payload.issues.push({ code: "custom", input: code, message });
  });
}

/** The amount in minor units of the currency, or why it has none there (decimals, size, zero). */
export function positiveMinorUnits(amount: string, currency: string, field = "amount"): number | string {
  let minor: number;
  try {
    minor = toMinor(amount, currency);
  } catch (error) {
    if (error instanceof MoneyFormatError) return error.message.replace(/^amount /, `${field} `);
    throw error;
  }
  // The gateway cannot take a zero charge; a free plan is a trial, not a price.
  return minor > 0 ? minor : `${field} must be greater than zero`;
}

const hasIssueAt = (issues: readonly { path?: readonly PropertyKey[] }[], field: string) =>
  issues.some((issue) => issue.path?.[0] === field);

/**
 * The body of "create a plan" (snake_case, as the HTTP API receives it). The amount is a decimal
 * string converted exactly to minor units of the currency: "10.5" QAR is 1050 dirham, while
 * "10.505" QAR is refused rather than rounded. Unknown fields are refused so that a misspelt
 * optional field ("trial_day") cannot silently fall back to its default. Every problem is reported
 * at once: the amount's check against its currency runs even when other fields are wrong, so a
 * body with several bad fields is answered with all of them.
 */
export function planInputSchema({ currencies }: PlanInputOptions = {}) {
  return z
    .strictObject(
      {
        name: z
          .string({ error: "name must be a string" })
          .trim()
          .min(1, { error: "name must not be empty" })
          .max(200, { error: "name must be at most 200 characters" })
          .check(storableText("name")),
        amount: decimalAmountText(),
        currency: currencyCode(currencies).describe(
          currencies
            ? `ISO 4217 code the gateway account takes: ${currencies.join(", ")} (GATEWAY_CURRENCIES)`
            : "ISO 4217 code",
        ),
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
        collection_method: z
          .enum(COLLECTION_METHODS, {
            error: `collection_method must be one of ${COLLECTION_METHODS.join(", ")}`,
          })
          .default("charge_automatically"),
        trial_without_card: z.boolean({ error: "trial_without_card must be true or false" }).default(false),
      },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
      },
    )
    .superRefine(
      (input, ctx) => {
        const minor = positiveMinorUnits(input.amount, input.currency);
        if (typeof minor === "string") ctx.addIssue({ code: "custom", path: ["amount"], message: minor });
        if (input.trial_without_card === true && !(Number(input.trial_days) > 0)) {
          ctx.addIssue({
            code: "custom",
            path: ["trial_without_card"],
            message: "trial_without_card needs trial_days of at least 1",
          });
        }
      },
      {
        // Also when other fields failed, as long as the amount and the currency themselves are fine.
        when: ({ value, issues }) =>
          typeof value === "object" &&
          value !== null &&
          !hasIssueAt(issues, "amount") &&
          !hasIssueAt(issues, "currency"),
      },
    )
    .transform(
      (input): PlanInput => ({
        name: input.name,
        amount: { minor: toMinor(input.amount, input.currency), currency: input.currency },
        intervalUnit: input.interval,
        intervalCount: input.interval_count,
        trialDays: input.trial_days,
        productId: input.product_id ?? null,
        billingMode: input.billing_mode,
        collectionMethod: input.collection_method,
        trialWithoutCard: input.trial_without_card,
      }),
    );
}

export class PlanInputError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid plan: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "PlanInputError";
  }
}

/** Validates a create-plan body; throws PlanInputError listing every problem by field. */
export function parsePlanInput(input: unknown, options: PlanInputOptions = {}): PlanInput {
  const result = planInputSchema(options).safeParse(input);
  if (result.success) return result.data;
  throw new PlanInputError(
    result.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
  );
}

export function planInterval(plan: Pick<Plan, "intervalUnit" | "intervalCount">): BillingInterval {
  return { unit: plan.intervalUnit, count: plan.intervalCount };
}
