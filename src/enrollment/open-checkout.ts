import { and, eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { enrollments } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { GatewayError } from "../gateway/index.js";
import { EnrollmentCheckoutError } from "./errors.js";
import { ENROLLMENT_EVENTS } from "./events.js";
import type { CustomerRow, EnrollmentRow } from "./records.js";

export type CheckoutContext = Pick<EngineContext, "db" | "clock" | "gateway" | "logger">;

/**
 * Asks the gateway for the hosted checkout of a committed enrollment and stores its URL. The
 * checkout saves the card and returns the money at once (isVoid): a recurring token for plans
 * of fixed price (isRecurring), an autosave token when the amount varies (autoSave=yes). The
 * enrollment id is the orderId, which is how callbacks find the enrollment again.
 *
 * No transaction is open during the call. When it fails the enrollment is marked failed with the
 * reason and EnrollmentCheckoutError is thrown; nothing else changes.
 */
export async function openCheckout(
  ctx: CheckoutContext,
  enrollment: EnrollmentRow,
  customer: CustomerRow,
  actor: string,
): Promise<string> {
  let checkoutUrl: string;
  try {
    ({ checkoutUrl } = await ctx.gateway.legacy.addTransaction({
      amount: { minor: enrollment.amountMinor, currency: enrollment.currency },
      orderId: enrollment.id,
      customerEmail: customer.email,
      ...(customer.name === null ? {} : { customerName: customer.name }),
      ...(customer.phone === null ? {} : { customerPhone: customer.phone }),
      lang: enrollment.language,
      ...(enrollment.kind === "recurring" ? { isRecurring: true } : { autoSave: true }),
      isVoid: true,
    }));
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    await markCheckoutFailed(ctx, enrollment, error.description, actor);
    throw new EnrollmentCheckoutError(enrollment.subscriptionId, enrollment.id, error);
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

async function markCheckoutFailed(
  ctx: CheckoutContext,
  enrollment: EnrollmentRow,
  description: string,
  actor: string,
): Promise<void> {
  try {
    await ctx.db.transaction(async (tx) => {
      const [failed] = await tx
        .update(enrollments)
        .set({ status: "failed", failureDescription: `checkout not created: ${description}` })
        .where(and(eq(enrollments.id, enrollment.id), eq(enrollments.status, "pending")))
        .returning({ id: enrollments.id });
      if (!failed) return;
      await recordEvent(tx, {
        type: ENROLLMENT_EVENTS.enrollmentFailed,
        actor,
        occurredAt: ctx.clock.now(),
        subscriptionId: enrollment.subscriptionId,
        data: { enrollment_id: enrollment.id, stage: "checkout", description },
      });
    });
  } catch (error) {
    // The enrollment stays pending without a URL; the next startReEnrollment expires it.
    ctx.logger.error(
      { err: error, enrollmentId: enrollment.id },
      "could not mark an enrollment failed after AddTransaction failed",
    );
  }
}
