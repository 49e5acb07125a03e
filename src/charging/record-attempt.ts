import { and, eq, sql } from "drizzle-orm";
import type { EngineContext } from "../app/index.js";
import { assertChargeTransition, type ChargeState } from "../billing/index.js";
import { SqlState, violates } from "../db/index.js";
import { chargeAttempts, charges } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { chargeOrderId } from "./order-id.js";

/**
 * Rule: an attempt is recorded, with its orderId, and COMMITTED before the gateway is called, so
 * that a crash at any later point leaves a row naming exactly what to ask CheckStatus about.
 *
 * Only one worker can claim a charge. The claim is a compare-and-set on the charge as the caller
 * saw it (status and attempt_count): the update takes the row lock and re-reads it, so of two
 * workers holding the same snapshot one moves the charge to `processing` with attempt_count + 1 and
 * the other matches nothing. Behind that, the partial unique index charge_attempts_one_open_per_charge
 * refuses a second open attempt and (charge_id, attempt_number) a second attempt of one number: a
 * unique violation means someone else is already charging it. Either way the caller gets null.
 */
export interface ClaimedCharge {
  readonly id: string;
  readonly status: ChargeState;
  readonly attemptCount: number;
}

export interface RecordedAttempt {
  readonly id: string;
  readonly chargeId: string;
  readonly orderId: string;
  readonly attemptNumber: number;
}

export async function recordAttempt(
  ctx: Pick<EngineContext, "db" | "clock">,
  charge: ClaimedCharge,
  options: { actor: string; forced: boolean },
): Promise<RecordedAttempt | null> {
  assertChargeTransition(charge.status, "processing");
  const chargeId = charge.id;
  try {
    return await ctx.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(charges)
        .set({ status: "processing", attemptCount: sql`${charges.attemptCount} + 1`, nextAttemptAt: null })
        .where(
          and(
            eq(charges.id, chargeId),
            eq(charges.status, charge.status),
            eq(charges.attemptCount, charge.attemptCount),
          ),
        )
        .returning({ attemptNumber: charges.attemptCount, subscriptionId: charges.subscriptionId });
      if (!claimed) return null;
      const { attemptNumber } = claimed;
      const orderId = chargeOrderId(chargeId, attemptNumber);
      const [attempt] = await tx
        .insert(chargeAttempts)
        .values({ chargeId, orderId, attemptNumber, status: "in_flight" })
        .returning({ id: chargeAttempts.id });
      if (!attempt) throw new Error(`attempt ${orderId} was not recorded`);
      await recordEvent(tx, {
        type: "charge.attempt_started",
        actor: options.actor,
        occurredAt: ctx.clock.now(),
        subscriptionId: claimed.subscriptionId,
        chargeId,
        data: { attempt: attemptNumber, order_id: orderId, forced: options.forced },
      });
      return { id: attempt.id, chargeId, orderId, attemptNumber };
    });
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation)) return null;
    throw error;
  }
}
