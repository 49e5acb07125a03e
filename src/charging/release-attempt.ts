import { assertChargeTransition } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { recordEvents } from "../events/index.js";
import { countChargeAttempt } from "../metrics/index.js";
import { lockCharges } from "./lock-charges.js";
import { settlingFrom } from "./settling-from.js";

/**
 * Rule: an attempt known to have moved no money is closed as failed_permanently, and its charge
 * goes back to waiting (retrying, due now) in the same transaction, so a charge never sits in
 * processing without an open attempt and the next attempt is found again from Postgres whatever
 * happens next. It does not count as a dunning attempt (only declines do). An attempt held for
 * review (needs_review, its charge too) is released the same way when an operator's status check
 * finds the gateway never registered it (reconcile-held-charge.ts).
 *
 * Used when CheckStatus does not know the orderId once the attempt is quiet, when the gateway
 * refused the request before processing it (429, no connection), and when it answered -7 (the card
 * token is unusable, which is then recorded on the payment method: the charge is settled by the
 * unusable-card path on its next run, without calling the gateway again).
 *
 * "Not found" is what a gateway that applies a payment late also says at first, so an attempt
 * released for it stays watched: lateCheckAfterSeconds sets its first re-check (billing/late-watch.ts, on
 * Postgres's clock), and the late-payments sweep asks CheckStatus again over the watch window.
 *
 * When the subscription was canceled meanwhile (immediately, with this attempt in flight), the
 * charge is canceled instead of waiting (retrying → canceled, in the same transaction): the card of
 * a canceled subscription is never sent a new attempt. Rows are locked subscription first, then
 * charge, as everywhere else (apply-outcome.ts).
 */
export interface Release {
  readonly chargeId: string;
  readonly attemptId: string;
  readonly attemptNumber: number;
  readonly code: string;
  readonly description: string;
  readonly actor: string;
  /**
   * Set when the reason is the card token: the payment method is marked unusable with it, and the
   * code and description become the charge's last decline.
   */
  readonly unusablePaymentMethodId?: string;
  /**
   * The attempt is held for review (attempt and charge in needs_review) and an operator's status
   * check found it never reached the gateway (reconcile-held-charge.ts). Default false.
   */
  readonly held?: boolean;
  /** Seconds until CheckStatus is asked again about this attempt; absent or null: not watched. */
  readonly lateCheckAfterSeconds?: number | null;
  /** The charge is due again this many seconds from now (billing clock); default 0, at once. */
  readonly dueAfterSeconds?: number;
}

/** Returns false when the attempt was no longer open (another worker settled it first). */
export async function releaseAttempt(
  ctx: Pick<EngineContext, "db" | "clock">,
  release: Release,
): Promise<boolean> {
  const now = ctx.clock.now();
  const at = now.toUTC().toISO();
  const from = settlingFrom(release.held ?? false);
  const released = await ctx.db.$client.begin(async (tx) => {
    const locked = (await lockCharges(tx, [release.chargeId])).get(release.chargeId);
    if (locked?.charge.status !== from.charge) return false;
    const { charge, subscription } = locked;
    const watchAfter = release.lateCheckAfterSeconds ?? null;
    const closed = await tx`
      update charge_attempts set status = 'failed_permanently', decline_code = ${release.code},
        decline_description = ${release.description}, settled_at = ${at}::timestamptz,
        late_check_at = now() + make_interval(secs => ${watchAfter}::double precision)
      where id = ${release.attemptId}::uuid and status::text = any(${from.attempt}::text[])
      returning id`;
    if (closed.length === 0) return false;
    assertChargeTransition(charge.status, "retrying");
    const canceled = subscription.status === "canceled";
    if (canceled) assertChargeTransition("retrying", "canceled");
    const dueAt = now
      .plus({ seconds: release.dueAfterSeconds ?? 0 })
      .toUTC()
      .toISO();
    // A card the gateway refused is retired: its refusal is the charge's last decline, which the
    // unusable-card path then keeps when it ends collection.
    const refusal = release.unusablePaymentMethodId ? release : null;
    await tx`
      update charges set status = ${canceled ? "canceled" : "retrying"}::charge_status,
        next_attempt_at = ${canceled ? null : dueAt}::timestamptz,
        last_decline_code = coalesce(${refusal?.code ?? null}::text, last_decline_code),
        last_decline_description = coalesce(${refusal?.description ?? null}::text, last_decline_description)
      where id = ${release.chargeId}::uuid`;
    if (release.unusablePaymentMethodId) {
      await tx`
        update payment_methods set unusable_at = ${at}::timestamptz,
          unusable_reason = ${`${release.code}: ${release.description}`}
        where id = ${release.unusablePaymentMethodId}::uuid and unusable_at is null`;
    }
    const subjects = {
      actor: release.actor,
      occurredAt: now,
      subscriptionId: subscription.id,
      chargeId: release.chargeId,
    };
    await recordEvents(tx, [
      {
        ...subjects,
        type: "charge.attempt_released",
        data: { attempt: release.attemptNumber, code: release.code, description: release.description },
      },
      ...(canceled
        ? [
            {
              ...subjects,
              type: "charge.canceled",
              customerId: subscription.customerId,
              data: { reason: "subscription canceled", previous_status: charge.status },
            },
          ]
        : []),
    ]);
    return true;
  });
  if (released) countChargeAttempt("failed_permanently");
  return released;
}
