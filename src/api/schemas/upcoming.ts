import { z } from "zod";
import { CHARGE_LINE_KINDS } from "../../billing/index.js";
import type { UpcomingCharge } from "../../upcoming/index.js";
import type { UsagePreview } from "../../usage-billing/index.js";
import { moneySchema, presentMoney, timestamp } from "./common.js";

const partSchema = z.object({
  quantity: z.number().int().describe("Units this part prices (a package counts its units)"),
  from_unit: z.number().int().nullable().describe("First unit of the tier (tiered and volume prices)"),
  to_unit: z.number().int().nullable().describe("Last unit of the tier; null: open or not tiered"),
  unit_amount: moneySchema,
  flat_amount: moneySchema,
  amount: moneySchema,
});

const usagePreviewSchema = z
  .object({
    period_start: timestamp,
    period_end: timestamp,
    charge_at: timestamp.describe(
      "When the billing tick charges it: the period's end plus USAGE_GRACE_HOURS, once late events are in",
    ),
    lines: z.array(
      z.object({
        meter_id: z.uuid(),
        description: z.string().describe("The meter's name"),
        quantity: z.number().int().describe("The period's usage so far, aggregated as the meter says"),
        amount: moneySchema.describe("What that usage costs so far"),
        parts: z.array(partSchema).describe("How the usage price's model priced the quantity"),
      }),
    ),
    total: moneySchema.describe("The usage charge so far (no coupon or credit applies to it)"),
  })
  .meta({ id: "UpcomingUsage" });

export const upcomingChargeSchema = z
  .object({
    subscription_id: z.uuid(),
    plan_id: z.uuid().describe("The plan the period bills: a change scheduled by then, else the current one"),
    quantity: z.number().int(),
    period_start: timestamp,
    period_end: timestamp,
    lines: z.array(
      z.object({
        kind: z.enum(CHARGE_LINE_KINDS),
        description: z.string(),
        ref_id: z
          .uuid()
          .nullable()
          .describe("The add-on or one-off charge the line bills; null for the plan"),
        quantity: z.number().int(),
        amount: moneySchema,
        parts: z.array(partSchema).describe("How the price model priced the quantity"),
      }),
    ),
    subtotal: moneySchema.describe("The lines added up"),
    discount: moneySchema.describe("Taken off by the live coupon, if it covers this period"),
    coupon_code: z.string().nullable(),
    credit: moneySchema.describe("Taken from the subscription's credit"),
    total: moneySchema.describe("What the charge will collect"),
    tax_included: moneySchema.describe("The tax part of the total (TAX_RATE_PERCENT, included in prices)"),
    usage: usagePreviewSchema
      .nullable()
      .describe(
        "The current period's usage so far, charged apart once the period has closed; null when its plan prices no usage",
      ),
  })
  .meta({ id: "UpcomingCharge" });

export function presentUpcomingCharge(upcoming: UpcomingCharge): z.infer<typeof upcomingChargeSchema> {
  const money = (minor: number) => presentMoney(minor, upcoming.currency);
  const { charge } = upcoming;
  return {
    subscription_id: upcoming.subscriptionId,
    plan_id: upcoming.planId,
    quantity: upcoming.quantity,
    period_start: upcoming.periodStart.toUTC().toISO()!,
    period_end: upcoming.periodEnd.toUTC().toISO()!,
    lines: upcoming.lines.map((line) => ({
      kind: line.kind,
      description: line.description,
      ref_id: line.refId,
      quantity: line.quantity,
      amount: money(line.amountMinor),
      parts: line.parts.map((part) => ({
        quantity: part.quantity,
        from_unit: part.fromUnit ?? null,
        to_unit: part.toUnit ?? null,
        unit_amount: money(part.unitAmountMinor),
        flat_amount: money(part.flatAmountMinor),
        amount: money(part.amountMinor),
      })),
    })),
    subtotal: money(upcoming.subtotalMinor),
    discount: money(charge.discountMinor),
    coupon_code: charge.discountApplied ? (upcoming.discount?.code ?? null) : null,
    credit: money(charge.creditAppliedMinor),
    total: money(charge.amountMinor),
    tax_included: money(upcoming.taxMinor),
    usage: upcoming.usage && presentUsage(upcoming.usage),
  };
}

function presentUsage(usage: UsagePreview): z.infer<typeof usagePreviewSchema> {
  const money = (minor: number) => presentMoney(minor, usage.currency);
  return {
    period_start: usage.periodStart.toUTC().toISO()!,
    period_end: usage.periodEnd.toUTC().toISO()!,
    charge_at: usage.chargeAt.toUTC().toISO()!,
    lines: usage.lines.map((line) => ({
      meter_id: line.refId!,
      description: line.description,
      quantity: line.quantity,
      amount: money(line.amountMinor),
      parts: line.parts.map((part) => ({
        quantity: part.quantity,
        from_unit: part.fromUnit ?? null,
        to_unit: part.toUnit ?? null,
        unit_amount: money(part.unitAmountMinor),
        flat_amount: money(part.flatAmountMinor),
        amount: money(part.amountMinor),
      })),
    })),
    total: money(usage.totalMinor),
  };
}
