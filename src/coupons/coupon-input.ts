import { z } from "zod";
import {
  COUPON_DURATIONS,
  type CouponDuration,
  type CouponTerms,
  currencyCode,
  decimalAmountText,
  positiveMinorUnits,
  storableText,
} from "../billing/index.js";
import { toMinor } from "../money/index.js";

/**
 * The body of "create a coupon" (snake_case, as the API receives it). Rules (the coupons table's):
 * - the code is trimmed and upper-cased, then must be 1-64 of A-Z, 0-9, _ and -, so lookups are exact;
 * - percent_off (a whole 1-99: the gateway's invoice discount is a percentage below 100) XOR
 *   amount_off, a decimal string converted exactly to minor units of its currency (one the
 *   gateway account takes, as for plans);
 * - duration_periods is given exactly when the duration is `repeating` (1-1200).
 * Every problem is reported at once, each naming its field.
 */

export const COUPON_CODE = /^[A-Z0-9][A-Z0-9_-]{0,63}$/;
export const MAX_DURATION_PERIODS = 1200;
/** Within the column's int4; far above any real campaign. */
export const MAX_REDEMPTIONS = 1_000_000_000;

/** A validated coupon before it is stored and given an id. */
export interface CouponInput {
  readonly code: string;
  readonly name: string | null;
  readonly terms: CouponTerms;
  readonly duration: CouponDuration;
  readonly durationPeriods: number | null;
  readonly maxRedemptions: number | null;
  readonly expiresAt: Date | null;
}

export interface CouponInputOptions {
  /** The currencies the gateway account takes (GATEWAY_CURRENCIES). */
  readonly currencies?: readonly string[];
}

const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int({ error: `${field} must be a whole number` })
    .min(min, { error: `${field} must be from ${min} to ${max}` })
    .max(max, { error: `${field} must be from ${min} to ${max}` });

/** Normalises a code as it is stored: trimmed, upper-case. */
export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

export const couponCode = z
  .string({ error: "code must be a string" })
  .trim()
  .toUpperCase()
  .regex(COUPON_CODE, {
    error: "code must be 1 to 64 letters, digits, _ or -, starting with a letter or digit",
  });

type Issue = { path: string[]; message: string };

/** The rules between fields: which kind of discount, its currency, and its duration. */
function crossFieldIssues(input: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const has = (field: string) => input[field] !== undefined && input[field] !== null;
  if (has("percent_off") && has("amount_off")) {
    issues.push({ path: ["amount_off"], message: "give either percent_off or amount_off, not both" });
  } else if (!has("percent_off") && !has("amount_off")) {
    issues.push({
      path: ["percent_off"],
      message: "percent_off (1 to 99) or amount_off (with currency) is required",
    });
  }
  if (has("amount_off") && !has("currency")) {
    issues.push({ path: ["currency"], message: "currency is required with amount_off" });
  }
  if (!has("amount_off") && has("currency")) {
    issues.push({ path: ["currency"], message: "currency goes only with amount_off" });
  }
  if (input.duration === "repeating" && !has("duration_periods")) {
    issues.push({
      path: ["duration_periods"],
      message: "duration_periods is required when duration is repeating",
    });
  }
  if (input.duration !== "repeating" && has("duration_periods")) {
    issues.push({
      path: ["duration_periods"],
      message: "duration_periods goes only with duration repeating",
    });
  }
  if (typeof input.amount_off === "string" && typeof input.currency === "string") {
    const minor = positiveMinorUnits(input.amount_off, input.currency, "amount_off");
    if (typeof minor === "string") issues.push({ path: ["amount_off"], message: minor });
  }
  return issues;
}

const hasIssueAt = (issues: readonly { path?: readonly PropertyKey[] }[], fields: string[]) =>
  issues.some((issue) => fields.includes(String(issue.path?.[0])));

export function couponInputSchema({ currencies }: CouponInputOptions = {}) {
  return z
    .strictObject(
      {
        code: couponCode.describe("Stored trimmed and upper-case; 1-64 of A-Z, 0-9, _ and -"),
        name: z
          .string({ error: "name must be a string" })
          .trim()
          .min(1, { error: "name must not be empty" })
          .max(200, { error: "name must be at most 200 characters" })
          .check(storableText("name"))
          .nullish(),
        percent_off: whole("percent_off", 1, 99)
          .nullish()
          .describe("Whole percent, 1 to 99 (the gateway's invoice discount takes no 100)"),
        amount_off: decimalAmountText("amount_off")
          .nullish()
          .describe('Fixed discount per period, a decimal string such as "10.00", with currency'),
        currency: currencyCode(currencies)
          .nullish()
          .describe("The fixed discount's currency; a subscription in another cannot redeem it"),
        duration: z
          .enum(COUPON_DURATIONS, { error: `duration must be one of ${COUPON_DURATIONS.join(", ")}` })
          .describe("once: the first period charged; repeating: duration_periods periods; forever"),
        duration_periods: whole("duration_periods", 1, MAX_DURATION_PERIODS).nullish(),
        max_redemptions: whole("max_redemptions", 1, MAX_REDEMPTIONS)
          .nullish()
          .describe("How many subscriptions may redeem it; unlimited when absent"),
        expires_at: z.iso
          .datetime({ offset: true, error: "expires_at must be an ISO 8601 instant with an offset" })
          .nullish()
          .describe("On the billing clock: no redemption at or after it"),
      },
      {
        error: (issue) =>
          issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
      },
    )
    .superRefine(
      (input, ctx) => {
        for (const issue of crossFieldIssues(input)) ctx.addIssue({ code: "custom", ...issue });
      },
      {
        // Also when other fields failed, as long as those the rules read are fine themselves.
        when: ({ value, issues }) =>
          typeof value === "object" &&
          value !== null &&
          !hasIssueAt(issues, ["percent_off", "amount_off", "currency", "duration", "duration_periods"]),
      },
    )
    .transform(
      (input): CouponInput => ({
        code: input.code,
        name: input.name ?? null,
        terms:
          input.amount_off && input.currency
            ? {
                type: "fixed",
                amountOffMinor: toMinor(input.amount_off, input.currency),
                currency: input.currency,
              }
            : { type: "percentage", percentOff: input.percent_off ?? 0 },
        duration: input.duration,
        durationPeriods: input.duration_periods ?? null,
        maxRedemptions: input.max_redemptions ?? null,
        expiresAt: input.expires_at ? new Date(input.expires_at) : null,
      }),
    );
}

export class CouponInputError extends Error {
  constructor(readonly issues: readonly { readonly field: string; readonly message: string }[]) {
    super(`invalid coupon: ${issues.map((issue) => issue.message).join("; ")}`);
    this.name = "CouponInputError";
  }
}

/** Validates a create-coupon body; throws CouponInputError listing every problem by field. */
export function parseCouponInput(input: unknown, options: CouponInputOptions = {}): CouponInput {
  const result = couponInputSchema(options).safeParse(input);
  if (result.success) return result.data;
  throw new CouponInputError(
    result.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
  );
}
