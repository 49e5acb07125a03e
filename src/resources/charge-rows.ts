import { asc, inArray } from "drizzle-orm";
import type { ChargeRefund } from "../billing/index.js";
// The modules themselves, not the charging and refunds indexes: a read (`billing charges list`)
// loads what it reads, not the collection services and what they import (queues, the gateway).
import { paymentLinkUrl } from "../charging/payment-link-url.js";
import type { EngineContext } from "../context/index.js";
import type { Db, Tx } from "../db/index.js";
import { chargeAttempts, type charges } from "../db/schema/index.js";
import { chargeRefunds } from "../refunds/charge-refunds.js";

/**
 * A charge as it is shown (API, CLI, webhooks): its row with its attempts (order ids and gateway
 * transactions), what reconciling our records with the gateway's starts from without knowing how
 * we build order ids; and its refund state, since a refunded charge stays `paid`.
 */
export type ChargeRow = typeof charges.$inferSelect & { attempts: AttemptSummary[]; refund: ChargeRefund };

/** The attempts of these charges, in one query, oldest first. */
function attemptsOf(db: Db | Tx, chargeIds: string[]) {
  return db
    .select({
      chargeId: chargeAttempts.chargeId,
      attemptNumber: chargeAttempts.attemptNumber,
      orderId: chargeAttempts.orderId,
      status: chargeAttempts.status,
      gatewayTransactionId: chargeAttempts.gatewayTransactionId,
      declineCode: chargeAttempts.declineCode,
      duplicateAt: chargeAttempts.duplicateAt,
      createdAt: chargeAttempts.createdAt,
    })
    .from(chargeAttempts)
    .where(inArray(chargeAttempts.chargeId, chargeIds))
    .orderBy(asc(chargeAttempts.chargeId), asc(chargeAttempts.attemptNumber));
}

export type AttemptSummary = Awaited<ReturnType<typeof attemptsOf>>[number];

/** These charge rows with their attempts and refund state: two queries whatever their number. */
export async function withAttemptsAndRefunds<Row extends typeof charges.$inferSelect>(
  db: Db | Tx,
  rows: Row[],
): Promise<(Row & ChargeRow)[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [attempts, refundOf] = await Promise.all([attemptsOf(db, ids), chargeRefunds(db, ids)]);
  return rows.map((row) => ({
    ...row,
    attempts: attempts.filter((a) => a.chargeId === row.id),
    refund: refundOf(row.id),
  }));
}

/** What signs payment links: the token vault's key, and where customers reach our server. */
export type LinkSigner = Pick<EngineContext, "vault" | "publicUrl">;

/**
 * The payment link the customer pays the charge through, while it awaits that payment (a charge
 * becomes awaiting_payment only as its link goes out: charging/send-payment-links.ts); null for any
 * other charge, and when no signer is at hand (a CLI read without the token key).
 */
export function paymentLinkOf(row: ChargeRow, signer: LinkSigner | null): string | null {
  if (row.status !== "awaiting_payment" || signer === null) return null;
  return paymentLinkUrl(signer, row.id);
}
