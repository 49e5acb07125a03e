import { and, asc, eq, inArray } from "drizzle-orm";
import { DateTime } from "luxon";
import type { EngineContext } from "../../context/index.js";
import { chargeAttempts, charges, invoices, subscriptions } from "../../db/schema/index.js";
import { toDecimalString } from "../../money/index.js";
import type { Enrolled } from "./scenario.js";
import { seatLines, usageLines } from "./summary-metered.js";

/**
 * What happened to every charge of the demo, read back from the database: one row per customer,
 * one column per billing month, and the totals the demo ends with.
 */

type ChargeRow = typeof charges.$inferSelect;

export type Outcome = "on_time" | "recovered" | "by_link" | "invoiced" | "open" | "canceled";

/** `byLink`: the payment that paid the charge came through a checkout opened from its payment link. */
export function outcomeOf(charge: ChargeRow, invoiced: boolean, byLink = false): Outcome {
  if (charge.status === "paid" && byLink) return "by_link";
  if (charge.status === "paid") return charge.attemptCount > 1 ? "recovered" : "on_time";
  if (charge.status === "uncollectible" && invoiced) return "invoiced";
  if (charge.status === "canceled") return "canceled";
  return "open";
}

/**
 * The charge's outcome, with its amount when it is not the plan's period (an upgrade, usage) or
 * something came off the price, and its seats when it bills more than one.
 */
function describe(charge: ChargeRow, outcome: Outcome): string {
  const said = describeOutcome(charge, outcome);
  const amount = toDecimalString(charge.amountMinor, charge.currency);
  if (charge.kind === "plan_change") return `upgrade ${amount} ${said}`;
  if (charge.kind === "usage") return `usage ${amount} ${said}`;
  const seats = charge.quantity > 1 ? `${charge.quantity} seats ` : "";
  return charge.discountMinor + charge.creditMinor > 0
    ? `${seats}${said} (${amount} after discount)`
    : `${seats}${said}`;
}

function describeOutcome(charge: ChargeRow, outcome: Outcome): string {
  const attempts = `${charge.attemptCount} attempt${charge.attemptCount === 1 ? "" : "s"}`;
  switch (outcome) {
    case "on_time":
      return "paid on time";
    case "recovered":
      return `recovered, ${attempts}`;
    case "by_link":
      return "paid by link";
    case "invoiced":
      return `invoiced after ${attempts}`;
    case "canceled":
      return "canceled";
    case "open":
      return `${charge.status}, ${attempts}`;
  }
}

export interface DemoSummary {
  columns: string[];
  rows: Record<string, string>[];
  totals: {
    onTime: number;
    recovered: string[];
    /** Charges paid through their payment link: who, which month. */
    byLink: string[];
    invoiced: number;
    canceled: string[];
    /** Plan-change charges and discounted periods, said in words. */
    changes: string[];
    discounted: string[];
    /** Per customer on a per-seat plan, and per customer billed for usage (summary-metered.ts). */
    seats: string[];
    usage: string[];
  };
}

export async function summarise(ctx: EngineContext, cast: readonly Enrolled[]): Promise<DemoSummary> {
  const ids = cast.map((member) => member.subscriptionId);
  const subs = await ctx.db.select().from(subscriptions).where(inArray(subscriptions.id, ids));
  const rows = await ctx.db
    .select({ charge: charges, invoiceId: invoices.id })
    .from(charges)
    .leftJoin(invoices, eq(invoices.chargeId, charges.id))
    .where(inArray(charges.subscriptionId, ids))
    // A period's usage charge starts with the period: it comes after the period's own charge.
    .orderBy(asc(charges.periodStart), asc(charges.createdAt));
  // A charge paid by link was paid by an approved attempt of the checkout channel.
  const linkPaid = new Set(
    (
      await ctx.db
        .select({ chargeId: chargeAttempts.chargeId })
        .from(chargeAttempts)
        .innerJoin(charges, eq(charges.id, chargeAttempts.chargeId))
        .where(
          and(
            inArray(charges.subscriptionId, ids),
            eq(chargeAttempts.channel, "checkout"),
            eq(chargeAttempts.status, "approved"),
            eq(chargeAttempts.gatewayTransactionId, charges.paidTransactionId),
          ),
        )
    ).map((row) => row.chargeId),
  );
  const month = (at: Date) =>
    DateTime.fromJSDate(at).setZone(ctx.config.BILLING_TIMEZONE).toFormat("LLL yyyy");
  const months = [...new Set(rows.map(({ charge }) => month(charge.periodStart)))];

  const totals: DemoSummary["totals"] = {
    onTime: 0,
    recovered: [],
    byLink: [],
    invoiced: 0,
    canceled: [],
    changes: [],
    discounted: [],
    seats: await seatLines(ctx, cast, month),
    usage: await usageLines(ctx, cast, month),
  };
  const table = cast.map((member) => {
    const line: Record<string, string> = { customer: member.name, card: member.story };
    for (const { charge, invoiceId } of rows.filter(
      (row) => row.charge.subscriptionId === member.subscriptionId,
    )) {
      const outcome = outcomeOf(charge, invoiceId !== null, linkPaid.has(charge.id));
      const column = month(charge.periodStart);
      const said = describe(charge, outcome);
      line[column] = line[column] ? `${line[column]}; ${said}` : said;
      const amount = `${toDecimalString(charge.amountMinor, charge.currency)} ${charge.currency}`;
      if (charge.kind === "plan_change") totals.changes.push(`${member.name}: ${amount} charged at once`);
      else if (charge.discountMinor > 0) totals.discounted.push(`${member.name} ${column}: ${amount}`);
      if (outcome === "on_time") totals.onTime += 1;
      if (outcome === "recovered")
        totals.recovered.push(`${member.name} after ${charge.attemptCount} attempts`);
      if (outcome === "by_link") totals.byLink.push(`${member.name} ${column}`);
      if (outcome === "invoiced") totals.invoiced += 1;
    }
    const status = subs.find((sub) => sub.id === member.subscriptionId)?.status ?? "unknown";
    if (status === "canceled") totals.canceled.push(member.name);
    line.subscription = status;
    return line;
  });
  return { columns: ["customer", "card", ...months, "subscription"], rows: table, totals };
}
