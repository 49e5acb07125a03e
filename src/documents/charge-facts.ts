import { and, desc, eq, lte } from "drizzle-orm";
import type { ChargeKind } from "../billing/index.js";
import type { Db } from "../db/index.js";
import { charges, customers, paymentMethods, plans, subscriptions } from "../db/schema/index.js";
import { chargeLinesOf } from "../pricing/index.js";
import type { ChargeFacts } from "./build-model.js";
import type { DocumentModel } from "./model.js";

/**
 * What both documents read about the charge they print: its plan, its customer and the calendar
 * its dates are shown on (the customer's own zone, else the subscription's), and the card that
 * paid it.
 */

/** Columns to select from charges joined with plans, subscriptions and the document's customer. */
export const chargeColumns = {
  chargeId: charges.id,
  chargeKind: charges.kind,
  planName: plans.name,
  periodStart: charges.periodStart,
  periodEnd: charges.periodEnd,
  chargeAmountMinor: charges.amountMinor,
  discountMinor: charges.discountMinor,
  discountPercent: charges.discountPercent,
  creditMinor: charges.creditMinor,
  subscriptionId: subscriptions.id,
  subscriptionTimeZone: subscriptions.timezone,
  customerName: customers.name,
  customerEmail: customers.email,
  customerLanguage: customers.language,
  customerTimeZone: customers.timeZone,
};

/** A row of chargeColumns. */
export interface ChargeRow {
  chargeId: string;
  chargeKind: ChargeKind;
  planName: string;
  periodStart: Date;
  periodEnd: Date;
  chargeAmountMinor: number;
  discountMinor: number;
  discountPercent: number | null;
  creditMinor: number;
  subscriptionId: string;
  subscriptionTimeZone: string;
  customerName: string | null;
  customerEmail: string;
  customerLanguage: "en" | "ar";
  customerTimeZone: string | null;
}

/** The columns of a charge's facts (the receipt e-mail selects these alone). */
export type ChargeFactColumns = Pick<
  ChargeRow,
  | "chargeId"
  | "chargeKind"
  | "planName"
  | "periodStart"
  | "periodEnd"
  | "chargeAmountMinor"
  | "discountMinor"
  | "discountPercent"
  | "creditMinor"
>;

/** The charge's facts with its stored lines (read by the charge's id). */
export async function chargeFacts(db: Db, row: ChargeFactColumns): Promise<ChargeFacts> {
  const lines = (await chargeLinesOf(db.$client, [row.chargeId])).get(row.chargeId) ?? [];
  return {
    kind: row.chargeKind,
    lines,
    planName: row.planName,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    amountMinor: row.chargeAmountMinor,
    discountMinor: row.discountMinor,
    discountPercent: row.discountPercent,
    creditMinor: row.creditMinor,
  };
}

export function customerOf(row: ChargeRow): DocumentModel["customer"] {
  return { name: row.customerName, email: row.customerEmail, language: row.customerLanguage };
}

export const timeZoneOf = (row: ChargeRow): string => row.customerTimeZone ?? row.subscriptionTimeZone;

/**
 * The digits of the card an attempt charged. Attempts do not name their card: a saved-card attempt
 * charged the card its subscription held then, which is the subscription's newest card saved before
 * the attempt began (a new card replaces the old one as it is saved). A checkout attempt was paid
 * with whatever card the customer typed on the gateway's page, which we never see.
 */
export async function attemptCardLast4(
  db: Db,
  subscriptionId: string,
  attempt: { channel: "card_token" | "checkout"; createdAt: Date } | null,
): Promise<string | null> {
  if (attempt?.channel !== "card_token") return null;
  const [card] = await db
    .select({ last4: paymentMethods.cardLast4 })
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.subscriptionId, subscriptionId),
        lte(paymentMethods.createdAt, attempt.createdAt),
      ),
    )
    .orderBy(desc(paymentMethods.createdAt))
    .limit(1);
  return card?.last4 ?? null;
}
