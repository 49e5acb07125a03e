import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import { customerMessages } from "../../db/schema/index.js";
import { chargeWithPlan } from "./rows.js";
import { isoText, localDate, type ModelLoader, optional, readData } from "./source.js";

/**
 * payment_due: a charge collected by payment link is due (the first notice, or the nth reminder
 * as the event says), with its link and the date to pay by when the event gives one. It no longer
 * applies once the charge left awaiting_payment (paid, ended, collected by card again), or when a
 * later reminder for the same charge is already waiting: that one says the same, more recently.
 */
export const paymentDueModel: ModelLoader = async (ctx, source) => {
  const chargeId = source.chargeId ?? source.event.chargeId;
  if (chargeId === null) return { suppressed: "the event names no charge" };
  const charge = await chargeWithPlan(ctx.db, chargeId);
  if (!charge) return { suppressed: `charge ${chargeId} not found` };
  if (charge.status !== "awaiting_payment")
    return { suppressed: `the charge is ${charge.status}: nothing is due` };
  const [later] = await ctx.db
    .select({ id: customerMessages.id })
    .from(customerMessages)
    .where(
      and(
        eq(customerMessages.chargeId, chargeId),
        eq(customerMessages.kind, "payment_due"),
        isNull(customerMessages.resendOf),
        gt(customerMessages.eventId, source.eventId),
      ),
    )
    .limit(1);
  if (later) return { suppressed: `a later reminder (${later.id}) replaces it` };
  const data = readData({ reminder: optional(z.number().int().min(0)), due_by: isoText }, source.event.data);
  return {
    model: {
      kind: "payment_due",
      amount: { minor: charge.amountMinor, currency: charge.currency },
      planName: charge.planName,
      periodStart: localDate(charge.periodStart, source.zone),
      periodEnd: localDate(charge.periodEnd, source.zone),
      payUrl: ctx.links.paymentLink(chargeId),
      reminder: data.reminder ?? 0,
      payBy: data.due_by === undefined ? null : localDate(data.due_by, source.zone),
    },
  };
};
