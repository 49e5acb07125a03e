import { and, asc, eq, inArray } from "drizzle-orm";
import type { EngineContext } from "../../context/index.js";
import { charges, planChanges, plans } from "../../db/schema/index.js";
import { toDecimalString } from "../../money/index.js";
import { chargeLinesOf } from "../../pricing/index.js";
import { usagePreview } from "../../usage-billing/index.js";
import type { Enrolled } from "./scenario.js";

/**
 * The summary's lines for customers whose amount varies, read back from the database with the
 * arithmetic that made each amount, one line per charge ("Nadia Feb 2026: …"):
 * - a per-seat plan: each period charge as seats × the seat's price, a change of seats as its
 *   prorated charge (the rest of the period at the new seats less the same at the old);
 * - usage: each usage charge as the usage its lines billed, then the open period's usage so far,
 *   priced as it will be once that period closes (usage-billing's usagePreview).
 */

/** The billing month a charge's period starts in ("Jan 2026"). */
type MonthOf = (at: Date) => string;

const money = (minor: number, currency: string) => `${toDecimalString(minor, currency)} ${currency}`;
const units = new Intl.NumberFormat("en");
const used = (lines: readonly { quantity: number; description: string }[]) =>
  lines.map((line) => `${units.format(line.quantity)} ${line.description}`).join(" + ");

export async function seatLines(
  ctx: EngineContext,
  cast: readonly Enrolled[],
  month: MonthOf,
): Promise<string[]> {
  const rows = await ctx.db
    .select({ charge: charges, unitMinor: plans.amountMinor, change: planChanges })
    .from(charges)
    .innerJoin(plans, eq(plans.id, charges.planId))
    .leftJoin(planChanges, eq(planChanges.id, charges.planChangeId))
    .where(
      and(
        inArray(
          charges.subscriptionId,
          cast.map((member) => member.subscriptionId),
        ),
        eq(plans.priceModel, "per_unit"),
      ),
    )
    .orderBy(asc(charges.periodStart));
  return cast.flatMap((member) =>
    rows
      .filter(({ charge }) => charge.subscriptionId === member.subscriptionId)
      .map(({ charge, unitMinor, change }) => {
        const { currency } = charge;
        const amount = money(charge.amountMinor, currency);
        const who = `${member.name} ${month(charge.periodStart)}`;
        if (!change) {
          return `${who}: ${charge.quantity} × ${toDecimalString(unitMinor, currency)} = ${amount}`;
        }
        return (
          `${who}: seats ${change.fromQuantity} → ${change.toQuantity}, ${amount} at once (the period's rest: ` +
          `${toDecimalString(change.debitMinor, currency)} for ${change.toQuantity} seats less ` +
          `${toDecimalString(change.creditMinor, currency)} for ${change.fromQuantity})`
        );
      }),
  );
}

export async function usageLines(
  ctx: EngineContext,
  cast: readonly Enrolled[],
  month: MonthOf,
): Promise<string[]> {
  const billed = await ctx.db
    .select()
    .from(charges)
    .where(
      and(
        inArray(
          charges.subscriptionId,
          cast.map((member) => member.subscriptionId),
        ),
        eq(charges.kind, "usage"),
      ),
    )
    .orderBy(asc(charges.periodStart));
  const lines = await chargeLinesOf(
    ctx.db.$client,
    billed.map((charge) => charge.id),
  );
  const out: string[] = [];
  for (const member of cast) {
    for (const charge of billed.filter((c) => c.subscriptionId === member.subscriptionId)) {
      out.push(
        `${member.name} ${month(charge.periodStart)}: ${used(lines.get(charge.id) ?? [])} billed ` +
          `${money(charge.amountMinor, charge.currency)}, ${charge.status}`,
      );
    }
    const open = await usagePreview(ctx.db.$client, member.subscriptionId, ctx.config.USAGE_GRACE_HOURS);
    if (open) {
      const chargeAt = open.chargeAt.setZone(ctx.config.BILLING_TIMEZONE).toFormat("ccc dd LLL HH:mm");
      out.push(
        `${member.name} ${month(open.periodStart.toJSDate())}: ${used(open.lines)} so far, ` +
          `${money(open.totalMinor, open.currency)} to be charged ${chargeAt}`,
      );
    }
  }
  return out;
}
