import { eq } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { chargeAttempts, charges, customers, plans, receipts, subscriptions } from "../db/schema/index.js";
import { documentModel } from "./build-model.js";
import { attemptCardLast4, chargeColumns, chargeFacts, customerOf, timeZoneOf } from "./charge-facts.js";
import type { DocumentModel, MerchantIdentity } from "./model.js";

/**
 * The receipt of a paid charge, found by the charge or by the receipt's id, ready to print; null
 * when there is none (a charge not yet paid has no receipt). The payment shown is the one that
 * settled the charge: its gateway transaction and the attempt that made it.
 */
export async function loadReceipt(
  db: Db,
  key: { chargeId: string } | { receiptId: string },
  merchant: MerchantIdentity,
): Promise<DocumentModel | null> {
  const [row] = await db
    .select({
      ...chargeColumns,
      number: receipts.number,
      issuedAt: receipts.issuedAt,
      amountMinor: receipts.amountMinor,
      currency: receipts.currency,
      taxRateBp: receipts.taxRateBp,
      taxLabel: receipts.taxLabel,
      paidAt: charges.paidAt,
      paidTransactionId: charges.paidTransactionId,
      attemptChannel: chargeAttempts.channel,
      attemptCreatedAt: chargeAttempts.createdAt,
    })
    .from(receipts)
    .innerJoin(charges, eq(charges.id, receipts.chargeId))
    .innerJoin(plans, eq(plans.id, charges.planId))
    .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
    .innerJoin(customers, eq(customers.id, receipts.customerId))
    .leftJoin(chargeAttempts, eq(chargeAttempts.gatewayTransactionId, charges.paidTransactionId))
    .where("chargeId" in key ? eq(receipts.chargeId, key.chargeId) : eq(receipts.id, key.receiptId))
    .limit(1);
  if (!row) return null;
  const attempt =
    row.attemptChannel === null || row.attemptCreatedAt === null
      ? null
      : { channel: row.attemptChannel, createdAt: row.attemptCreatedAt };
  return documentModel(
    {
      series: "receipt",
      number: row.number,
      issuedAt: row.issuedAt,
      amountMinor: row.amountMinor,
      currency: row.currency,
      taxRateBp: row.taxRateBp,
      taxLabel: row.taxLabel,
      timeZone: timeZoneOf(row),
      charge: await chargeFacts(db, row),
      customer: customerOf(row),
      payment: {
        cardLast4: await attemptCardLast4(db, row.subscriptionId, attempt),
        transactionId: row.paidTransactionId,
        paidAt: row.paidAt,
      },
      refund: null,
    },
    merchant,
  );
}
