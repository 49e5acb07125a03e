import { eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import type { Tx } from "../db/index.js";
import { enrollments, subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import { redact } from "../logger/index.js";
import { CALLBACK_SOURCES, type CallbackSource, readOrderId } from "./callback-params.js";
import { type Completion, completeEnrollment } from "./complete-enrollment.js";
import { ENROLLMENT_EVENTS, GATEWAY_ACTOR } from "./events.js";
import { type EnrollmentRow, type EnrollmentStatus, isSettled } from "./records.js";
import { retryOnConflict } from "./retry-on-conflict.js";
import { decideVerification, type VerificationDecision } from "./verification.js";
import { verifyPayment } from "./verify-payment.js";
import { attemptVoidRefund } from "./void-refund.js";

export type CallbackContext = Pick<EngineContext, "db" | "clock" | "gateway" | "vault" | "logger" | "config">;

const callbackInput = z.object({
  source: z.enum(CALLBACK_SOURCES),
  params: z.record(z.string(), z.string()),
});

export type GatewayCallbackInput = z.input<typeof callbackInput>;

export type CallbackOutcome = "completed" | "failed" | "already_applied" | "ignored";

export interface GatewayCallbackResult {
  /**
   * completed / failed: this call applied the gateway's verified outcome. already_applied: an
   * earlier call did (a replayed success URL, the webhook racing the browser). ignored: nothing
   * to apply (unknown or malformed order id, payment not found or still pending, or a verified
   * payment that does not match the enrollment, which is flagged for operators).
   */
  outcome: CallbackOutcome;
  enrollmentId?: string;
  subscriptionId?: string;
  /** The customer's language, for the result page. */
  language?: "en" | "ar";
  /** Where the result page links back to, when the checkout was started from one of our pages. */
  returnUrl?: string;
  /** The enrollment's status after the call, when the order id named one. */
  status?: EnrollmentStatus;
}

/**
 * Applies a gateway callback (success or failure redirect, or webhook) exactly once. Only the
 * order id is read from the parameters; what happened is asked of the gateway (CheckStatus, or
 * ValidatePayment) before anything changes, and no transaction is open during that call. The
 * change itself runs under row locks on the subscription and the enrollment, re-checking the
 * enrollment's status, so concurrent callbacks write the outcome, the card and the events once.
 *
 * Throws PaymentVerificationUnavailableError when the gateway cannot be asked; nothing changed.
 */
export async function applyGatewayCallback(
  ctx: CallbackContext,
  input: GatewayCallbackInput,
): Promise<GatewayCallbackResult> {
  const { source, params } = callbackInput.parse(input);
  const orderId = readOrderId(params);
  if (orderId === null) {
    ctx.logger.warn({ source, params: redact(params) }, "gateway callback without a usable order id ignored");
    return { outcome: "ignored" };
  }
  const [enrollment] = await ctx.db.select().from(enrollments).where(eq(enrollments.id, orderId));
  if (!enrollment) {
    ctx.logger.warn({ source, params: redact(params) }, "gateway callback for an unknown order id ignored");
    return { outcome: "ignored" };
  }
  const known = {
    enrollmentId: enrollment.id,
    subscriptionId: enrollment.subscriptionId,
    language: enrollment.language,
    returnUrl: enrollment.returnUrl ?? undefined,
  };
  // A settled enrollment cannot change, so a repeat needs no gateway call (spec: ignore repeats).
  if (isSettled(enrollment.status))
    return { outcome: "already_applied", ...known, status: enrollment.status };

  const decision = decideVerification(enrollment, await verifyPayment(ctx, orderId));
  if (decision.kind === "ignore") {
    ctx.logger.warn(
      { source, enrollmentId: enrollment.id, reason: decision.reason, params: redact(params) },
      "gateway callback for a payment that is not processed ignored",
    );
    return { outcome: "ignored", ...known, status: enrollment.status };
  }

  const now = ctx.clock.now();
  const applied = await retryOnConflict(() =>
    ctx.db.transaction((tx) => applyDecision(tx, ctx, { enrollment, decision, now, source })),
  );
  if (applied.completion?.voidRefund) await attemptVoidRefund(ctx, applied.completion.voidRefund);
  return { outcome: applied.outcome, ...known, status: applied.status };
}

interface Applied {
  outcome: CallbackOutcome;
  status: EnrollmentStatus;
  completion?: Completion;
}

async function applyDecision(
  tx: Tx,
  ctx: CallbackContext,
  args: {
    enrollment: EnrollmentRow;
    decision: Exclude<VerificationDecision, { kind: "ignore" }>;
    now: DateTime;
    source: CallbackSource;
  },
): Promise<Applied> {
  const { decision, now, source } = args;
  // Subscription first, then enrollment: the order startReEnrollment locks them in. NO KEY UPDATE
  // (what an UPDATE of the row takes) leaves the key-share locks of foreign-key checks free, so a
  // transaction that inserts an event for this subscription while holding the enrollment (the
  // refund result, the checkout URL) does not deadlock against the callbacks waiting here.
  const [subscription] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, args.enrollment.subscriptionId))
    .for("no key update");
  const [enrollment] = await tx
    .select()
    .from(enrollments)
    .where(eq(enrollments.id, args.enrollment.id))
    .for("update");
  if (!subscription || !enrollment) throw new Error(`enrollment ${args.enrollment.id} vanished`);
  if (isSettled(enrollment.status)) return { outcome: "already_applied", status: enrollment.status };

  const common = {
    actor: GATEWAY_ACTOR,
    occurredAt: now,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
  };
  switch (decision.kind) {
    case "complete": {
      const completion = await completeEnrollment(tx, ctx, {
        subscription,
        enrollment,
        decision,
        now,
        source,
      });
      return { outcome: "completed", status: "completed", completion };
    }
    case "fail": {
      await tx
        .update(enrollments)
        .set({
          status: "failed",
          failureDescription: decision.description,
          gatewayTransactionId: decision.transactionId,
        })
        .where(eq(enrollments.id, enrollment.id));
      await recordEvent(tx, {
        ...common,
        type: ENROLLMENT_EVENTS.enrollmentFailed,
        data: {
          enrollment_id: enrollment.id,
          stage: "payment",
          description: decision.description,
          gateway_transaction_id: decision.transactionId,
          source,
        },
      });
      // A new subscription is not a dead end: it can pay by payment link (payment-links/).
      if (subscription.status === "pending_enrollment") {
        await recordEvent(tx, {
          ...common,
          type: EVENT_TYPES.subscriptionEnrollmentFailed,
          data: {
            enrollment_id: enrollment.id,
            description: decision.description,
            alternative: "send_payment_link",
          },
        });
      }
      return { outcome: "failed", status: "failed" };
    }
    case "mismatch": {
      const attention = `gateway payment ${decision.transactionId} does not match the enrollment: ${decision.detail}`;
      // Every repeat of the callback finds the same mismatch; it is flagged once.
      if (enrollment.operatorAttention !== attention) {
        ctx.logger.error({ enrollmentId: enrollment.id, reason: decision.reason }, attention);
        await tx
          .update(enrollments)
          .set({ operatorAttention: attention })
          .where(eq(enrollments.id, enrollment.id));
        await recordEvent(tx, {
          ...common,
          type: ENROLLMENT_EVENTS.needsAttention,
          data: {
            enrollment_id: enrollment.id,
            reason: decision.reason,
            gateway_transaction_id: decision.transactionId,
            message: attention,
          },
        });
      }
      return { outcome: "ignored", status: enrollment.status };
    }
  }
}
