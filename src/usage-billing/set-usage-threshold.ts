import { eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { MoneyFormatError, toMinor } from "../money/index.js";
import { recurringPlanRefusal, UsagePriceInputError } from "./errors.js";
import { findPlan } from "./find-targets.js";

/**
 * Rule: a plan's spending threshold (progressive billing, scheduler/bill-usage-thresholds.ts) is
 * `{ amount }`, a decimal string in the plan's currency converted exactly to its minor units and
 * above zero, or `{ amount: null }` to stop billing in parts. It applies from the next tick, to
 * the periods still open. A recurring plan is refused as for usage prices (`card_amount_fixed`).
 * Recorded as `plan.usage_threshold_set`.
 */

export const usageThresholdBody = z.strictObject({
  amount: z
    .string()
    .nullable()
    .describe(
      "Usage not yet billed in an open period is charged once it reaches this; null: only at the close",
    ),
});

export interface UsageThreshold {
  readonly planId: string;
  readonly thresholdMinor: number | null;
  readonly currency: string;
}

function parseAmount(input: unknown, currency: string): number | null {
  const body = usageThresholdBody.safeParse(input);
  if (!body.success) {
    throw new UsagePriceInputError(
      body.error.issues.map((issue) => ({ field: issue.path.join(".") || "amount", message: issue.message })),
    );
  }
  if (body.data.amount === null) return null;
  try {
    const minor = toMinor(body.data.amount, currency);
    if (minor > 0) return minor;
  } catch (error) {
    if (!(error instanceof MoneyFormatError)) throw error;
    throw new UsagePriceInputError([{ field: "amount", message: error.message }]);
  }
  throw new UsagePriceInputError([{ field: "amount", message: "amount must be above zero" }]);
}

export async function setUsageThreshold(
  ctx: Pick<EngineContext, "db" | "clock">,
  args: { planId: string; input: unknown; actor?: string },
): Promise<UsageThreshold> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const plan = await findPlan(tx, args.planId);
    if (plan.billingMode === "recurring") throw recurringPlanRefusal(plan.id);
    const thresholdMinor = parseAmount(args.input, plan.currency);
    await tx.update(plans).set({ usageThresholdMinor: thresholdMinor }).where(eq(plans.id, plan.id));
    await recordEvent(tx, {
      type: "plan.usage_threshold_set",
      actor: args.actor ?? "system",
      occurredAt: now,
      data: { plan_id: plan.id, threshold_minor: thresholdMinor, currency: plan.currency },
    });
    return { planId: plan.id, thresholdMinor, currency: plan.currency };
  });
}
