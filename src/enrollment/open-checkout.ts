import { and, eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { releaseRedemption } from "../coupons/index.js";
import { enrollments, subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import { GatewayError } from "../gateway/index.js";
import { verificationNote } from "./checkout-note.js";
import { EnrollmentCheckoutError } from "./errors.js";
import { ENROLLMENT_EVENTS } from "./events.js";
import type { CustomerRow, EnrollmentRow } from "./records.js";

export type CheckoutContext = Pick<EngineContext, "db" | "clock" | "gateway" | "logger">;

export interface OpenCheckoutOptions {
  /** The subscription was made for this checkout (enroll): a refused checkout cancels it. */
  readonly newSubscription?: boolean;
}

/**
 * Asks the gateway for the hosted checkout of a committed enrollment and stores its URL. The
 * checkout saves the card and returns the money at once (isVoid): a recurring token for plans
 * of fixed price (isRecurring), an autosave token when the amount varies (autoSave=yes), with a note
 * telling the customer so (checkout-note.ts). The enrollment id is the orderId, which is how
 * callbacks find the enrollment again.
 *
 * No transaction is open during the call. When it gives no URL, EnrollmentCheckoutError is thrown
 * after the enrollment is closed as far as the gateway's answer allows (see enroll.ts): a refusal
 * (or a request that never left) fails it, and cancels the subscription when it is a new one; a
 * call whose outcome is unknown leaves it pending for the sweep, which asks CheckStatus.
 */
export async function openCheckout(
  ctx: CheckoutContext,
  enrollment: EnrollmentRow,
  customer: CustomerRow,
  actor: string,
  { newSubscription = false }: OpenCheckoutOptions = {},
): Promise<string> {
  let checkoutUrl: string;
  try {
    const amount = { minor: enrollment.amountMinor, currency: enrollment.currency };
    ({ checkoutUrl } = await ctx.gateway.legacy.addTransaction({
      amount,
      orderId: enrollment.id,
      customerEmail: customer.email,
      ...(customer.name === null ? {} : { customerName: customer.name }),
      ...(customer.phone === null ? {} : { customerPhone: customer.phone }),
      lang: enrollment.language,
      note: verificationNote(amount, enrollment.language),
      ...(enrollment.kind === "recurring" ? { isRecurring: true } : { autoSave: true }),
      isVoid: true,
    }));
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.outcomeUnknown) {
      ctx.logger.warn(
        { err: error, enrollmentId: enrollment.id },
        "AddTransaction gave no answer; the enrollment stays pending until the sweep settles it",
      );
      throw new EnrollmentCheckoutError(enrollment.subscriptionId, enrollment.id, error, false);
    }
    const canceled = await closeRefused(ctx, enrollment, error.description, actor, newSubscription);
    throw new EnrollmentCheckoutError(enrollment.subscriptionId, enrollment.id, error, canceled);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(enrollments).set({ checkoutUrl }).where(eq(enrollments.id, enrollment.id));
    await recordEvent(tx, {
      type: ENROLLMENT_EVENTS.checkoutCreated,
      actor,
      occurredAt: ctx.clock.now(),
      subscriptionId: enrollment.subscriptionId,
      data: { enrollment_id: enrollment.id },
    });
  });
  return checkoutUrl;
}

/**
 * Fails the enrollment whose checkout the gateway refused, and cancels its subscription when it
 * was made for it and is still pending_enrollment (the subscription is locked first, as
 * applyGatewayCallback locks them). True when the subscription was canceled.
 */
async function closeRefused(
  ctx: CheckoutContext,
  enrollment: EnrollmentRow,
  description: string,
  actor: string,
  cancelSubscription: boolean,
): Promise<boolean> {
  const now = ctx.clock.now();
  const reason = `checkout refused by the gateway: ${description}`;
  const subjects = { actor, occurredAt: now, subscriptionId: enrollment.subscriptionId };
  try {
    return await ctx.db.transaction(async (tx) => {
      const [canceled] = cancelSubscription
        ? await tx
            .update(subscriptions)
            .set({
              status: "canceled",
              canceledAt: now.toJSDate(),
              endedReason: reason,
            })
            .where(
              and(
                eq(subscriptions.id, enrollment.subscriptionId),
                eq(subscriptions.status, "pending_enrollment"),
              ),
            )
            .returning({ customerId: subscriptions.customerId })
        : [];
      const [failed] = await tx
        .update(enrollments)
        .set({ status: "failed", failureDescription: `checkout not created: ${description}` })
        .where(and(eq(enrollments.id, enrollment.id), eq(enrollments.status, "pending")))
        .returning({ id: enrollments.id });
      if (failed) {
        await recordEvent(tx, {
          ...subjects,
          type: ENROLLMENT_EVENTS.enrollmentFailed,
          data: { enrollment_id: enrollment.id, stage: "checkout", description },
        });
      }
      if (canceled) {
        // The subscription never started: a coupon redeemed with it is given back.
        await releaseRedemption(tx, {
          subscriptionId: enrollment.subscriptionId,
          customerId: canceled.customerId,
          actor,
          now,
          reason,
        });
        await recordEvent(tx, {
          ...subjects,
          customerId: canceled.customerId,
          type: EVENT_TYPES.subscriptionCanceled,
          data: {
            mode: "immediately",
            previous_status: "pending_enrollment",
            reason,
            canceled_charge_ids: [],
          },
        });
      }
      return canceled !== undefined;
    });
  } catch (error) {
    // The enrollment stays pending without a URL: the sweep expires it, startReEnrollment replaces it.
    ctx.logger.error(
      { err: error, enrollmentId: enrollment.id },
      "could not close an enrollment after AddTransaction refused it",
    );
    return false;
  }
}
