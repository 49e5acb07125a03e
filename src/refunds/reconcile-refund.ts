import { eq } from "drizzle-orm";
import { defaultQuietPeriodMs, sentBefore } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { chargeAttempts, charges, refunds } from "../db/schema/index.js";
import type { PaymentLookup, PaymentRecord } from "../gateway/index.js";
import { OPEN_REFUND_STATUSES, type RefundOutcome, type RefundRow, settleRefund } from "./settle.js";

/**
 * Settles a refund whose answer we never recorded: `requested` (the process died mid-call, or the
 * answer could not be written) or `unknown` (the reply was lost). The refund may or may not have
 * happened at the gateway, so nothing is sent to Refund again; the paid payment's record from
 * legacy CheckStatus (orderId and transaction id of the charge's approved attempt) says:
 *
 * - refundState true, refundstatus SUCCESS → completed; Processing → under_processing; both with
 *   the gateway's refundTransactionId;
 * - refundState false → the refund never reached the gateway: failed, with a description, which
 *   frees the charge for a new refund (the partial unique index ignores failed refunds);
 * - CheckStatus failing, the payment not found, or a record we cannot read for certain → left as
 *   it is, to be tried again on a later run.
 *
 * Only after the quiet period (charging/quiet-period.ts: 2 × GATEWAY_TIMEOUT_MS + 30 s), measured
 * on Postgres's clock against refunds.created_at (the row is committed before the call is sent):
 * before it, our own call may still be on its way, and "not refunded" would not mean "never will
 * be". Safe to run concurrently or repeatedly: the write is conditional on the row still being open
 * (settle.ts), so a second reconciler, or a late answer of the original call, changes nothing.
 */
export type ReconcileRefundResult =
  | { readonly kind: "settled"; readonly refund: RefundRow }
  /** Not requested or unknown (any more): someone settled it. */
  | { readonly kind: "not_open"; readonly refund: RefundRow }
  /** Younger than the quiet period: its call may still be running. */
  | { readonly kind: "too_recent" }
  /** CheckStatus could not be asked (gateway down, timeout, …); try again later. */
  | { readonly kind: "unavailable"; readonly description: string }
  /** The gateway answered, but not in a way that settles the refund for certain. */
  | { readonly kind: "inconclusive"; readonly why: string };

export interface ReconcileRefundOptions {
  /** Default: defaultQuietPeriodMs(ctx.config). */
  readonly quietPeriodMs?: number;
}

export class RefundNotFoundError extends Error {
  override name = "RefundNotFoundError";
  constructor(readonly refundId: string) {
    super(`refund ${refundId} does not exist`);
  }
}

export const RECONCILER_ACTOR = "reconciler";

type ReconcileContext = Pick<EngineContext, "db" | "gateway" | "clock" | "logger" | "config">;

type Verdict = { kind: "settle"; outcome: RefundOutcome } | { kind: "inconclusive"; why: string };

/** What the paid payment's record says about our refund. Pure. */
export function refundVerdict(lookup: PaymentLookup, refundedTransactionId: string): Verdict {
  if (!lookup.found) {
    return { kind: "inconclusive", why: "CheckStatus does not know the refunded payment's order" };
  }
  const payment: PaymentRecord = lookup.payment;
  if (payment.transactionId !== refundedTransactionId) {
    return {
      kind: "inconclusive",
      why: `CheckStatus reported payment ${payment.transactionId}, not the refunded ${refundedTransactionId}`,
    };
  }
  if (payment.state !== "SUCCESS") {
    return { kind: "inconclusive", why: `the refunded payment is ${payment.state}, not SUCCESS` };
  }
  if (payment.refundState === false) {
    return {
      kind: "settle",
      outcome: {
        status: "failed",
        description:
          "the gateway reports the payment as not refunded (CheckStatus refundState false) after the quiet " +
          "period: the refund never reached it; a new refund may be requested",
      },
    };
  }
  if (payment.refundState !== true) {
    return { kind: "inconclusive", why: "CheckStatus's payment record carries no refundState" };
  }
  const state = payment.refundStatus?.trim().toLowerCase();
  const gatewayRefundTransactionId = payment.refundTransactionId ?? null;
  const description = payment.refundDescription ?? null;
  if (state === "success") {
    return { kind: "settle", outcome: { status: "completed", gatewayRefundTransactionId, description } };
  }
  if (state === "processing") {
    return {
      kind: "settle",
      outcome: { status: "under_processing", gatewayRefundTransactionId, description },
    };
  }
  return {
    kind: "inconclusive",
    why: `the payment is refunded with refundstatus ${payment.refundStatus ?? "(none)"}, neither SUCCESS nor Processing`,
  };
}

async function loadOpenRefund(ctx: ReconcileContext, refundId: string, quietPeriodMs: number) {
  const [found] = await ctx.db
    .select({
      refund: refunds,
      orderId: chargeAttempts.orderId,
      subscriptionId: charges.subscriptionId,
      quiet: sentBefore(refunds.createdAt, quietPeriodMs),
    })
    .from(refunds)
    .innerJoin(chargeAttempts, eq(chargeAttempts.id, refunds.chargeAttemptId))
    .innerJoin(charges, eq(charges.id, refunds.chargeId))
    .where(eq(refunds.id, refundId));
  if (!found) throw new RefundNotFoundError(refundId);
  return { ...found, quiet: found.quiet === true };
}

export async function reconcileRefund(
  ctx: ReconcileContext,
  refundId: string,
  options: ReconcileRefundOptions = {},
): Promise<ReconcileRefundResult> {
  const quietPeriodMs = options.quietPeriodMs ?? defaultQuietPeriodMs(ctx.config);
  const { refund, orderId, subscriptionId, quiet } = await loadOpenRefund(ctx, refundId, quietPeriodMs);
  const open: readonly RefundRow["status"][] = OPEN_REFUND_STATUSES;
  if (!open.includes(refund.status)) return { kind: "not_open", refund };
  if (!quiet) return { kind: "too_recent" };

  const log = { refundId, chargeId: refund.chargeId, orderId, status: refund.status };
  let lookup: PaymentLookup;
  try {
    lookup = await ctx.gateway.legacy.checkStatus({ orderId, transactionId: refund.refundedTransactionId });
  } catch (err) {
    ctx.logger.warn({ err, ...log }, "CheckStatus failed while reconciling a refund; trying again later");
    return { kind: "unavailable", description: err instanceof Error ? err.message : String(err) };
  }

  const verdict = refundVerdict(lookup, refund.refundedTransactionId);
  if (verdict.kind === "inconclusive") {
    ctx.logger.warn(
      { ...log, why: verdict.why },
      "refund left open: the gateway's answer does not settle it",
    );
    return verdict;
  }
  const { row, changed } = await settleRefund(ctx, {
    refund,
    actor: RECONCILER_ACTOR,
    subscriptionId,
    outcome: verdict.outcome,
    from: OPEN_REFUND_STATUSES,
    data: { reconciled: true, reconciled_from: refund.status },
  });
  if (!changed) return { kind: "not_open", refund: row };
  ctx.logger.info({ ...log, outcome: row.status }, "refund reconciled from CheckStatus");
  return { kind: "settled", refund: row };
}
