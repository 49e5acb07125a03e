import type { DateTime } from "luxon";
import { z } from "zod";
import { PRORATION_BEHAVIORS } from "../../billing/index.js";
import type { ChangePlanResult } from "../../plan-changes/index.js";
import { moneySchema, presentMoney, timestamp } from "./common.js";
import { quantityField, reasonField, subscriptionSchema } from "./subscriptions.js";

export const changePlanBody = z
  .strictObject({
    plan_id: z
      .uuid({ error: "plan_id must be a plan id (uuid)" })
      .optional()
      .describe("The plan to move to; the current plan when absent (a change of quantity alone)"),
    quantity: quantityField
      .optional()
      .describe("Units of the plan (seats) from the change on; the current quantity when absent"),
    proration: z
      .enum(PRORATION_BEHAVIORS, { error: `proration must be one of ${PRORATION_BEHAVIORS.join(", ")}` })
      .optional()
      .describe("How the change is billed; PRORATION_BEHAVIOR when absent"),
    reason: reasonField,
  })
  .refine((body) => body.plan_id !== undefined || body.quantity !== undefined, {
    error: "give plan_id, quantity or both",
    path: ["plan_id"],
  });

export const planChangeSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(["applied", "scheduled", "canceled"]),
    proration: z.enum(PRORATION_BEHAVIORS),
    from_plan_id: z.uuid(),
    to_plan_id: z.uuid(),
    from_quantity: z.number().int(),
    to_quantity: z.number().int(),
    effective_at: timestamp.describe("Billing-clock time the change takes (or took) effect"),
    credit: moneySchema.describe("For the unused part of the old plan's period"),
    debit: moneySchema.describe(
      "For the new plan's part of the period, or its whole first period when re-anchored",
    ),
    charge_id: z.uuid().nullable().describe("The charge collecting the difference now, if any"),
    charge_amount: moneySchema.nullable(),
    credit_balance: moneySchema.describe(
      "The subscription's credit after the change, used by its next charges",
    ),
    replaced_plan_change_id: z.uuid().nullable().describe("A scheduled change this one replaced"),
  })
  .meta({ id: "PlanChange" });

export const changePlanReply = z
  .object({ subscription: subscriptionSchema, plan_change: planChangeSchema })
  .meta({ id: "PlanChangeResult" });

const isoOf = (value: DateTime) => value.toUTC().toISO()!;

export function presentPlanChange(result: ChangePlanResult): z.infer<typeof planChangeSchema> {
  const money = (minor: number) => presentMoney(minor, result.currency);
  return {
    id: result.planChangeId,
    status: result.status,
    proration: result.proration,
    from_plan_id: result.fromPlanId,
    to_plan_id: result.toPlanId,
    from_quantity: result.fromQuantity,
    to_quantity: result.toQuantity,
    effective_at: isoOf(result.effectiveAt),
    credit: money(result.creditMinor),
    debit: money(result.debitMinor),
    charge_id: result.chargeId,
    charge_amount: result.chargeId ? money(result.chargeAmountMinor) : null,
    credit_balance: money(result.creditBalanceMinor),
    replaced_plan_change_id: result.replacedPlanChangeId,
  };
}
