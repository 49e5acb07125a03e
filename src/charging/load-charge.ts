import { and, eq, inArray } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { ChargeState, SubscriptionState, TokenLifecycle } from "../billing/index.js";
import { toInstant } from "../clock/index.js";
import type { SealedToken } from "../crypto/index.js";
import type { Db } from "../db/index.js";
import { chargeAttempts, charges, paymentMethods, subscriptions } from "../db/schema/index.js";
import { sentBefore } from "./quiet-period.js";
import { resumableOnNewCard } from "./resumable.js";

/**
 * Reads, without locking, everything the charge worker decides on: the charge, its subscription,
 * the subscription's current card, and the charge's open attempt (in_flight or unknown; the
 * partial unique index charge_attempts_one_open_per_charge guarantees there is at most one).
 * Decisions made on this snapshot are re-checked by the conditional writes that act on them.
 */
export interface ChargeSnapshot {
  readonly charge: {
    readonly id: string;
    readonly subscriptionId: string;
    readonly status: ChargeState;
    readonly amountMinor: number;
    readonly currency: string;
    readonly attemptCount: number;
    readonly nextAttemptAt: DateTime | null;
    /** Collection resumes on a new card (see resumable.ts). */
    readonly resumable: boolean;
  };
  readonly subscription: {
    readonly id: string;
    readonly customerId: string;
    readonly status: SubscriptionState;
  };
  readonly paymentMethod: {
    readonly id: string;
    readonly kind: "recurring" | "autosave";
    readonly sealed: SealedToken;
    readonly lifecycle: TokenLifecycle;
  } | null;
  readonly openAttempt: OpenAttempt | null;
}

export interface OpenAttempt {
  readonly id: string;
  readonly orderId: string;
  readonly attemptNumber: number;
  readonly status: "in_flight" | "unknown";
  readonly reconcileTries: number;
  /** Sent longer ago than the quiet period (see quiet-period.ts). */
  readonly quiet: boolean;
}

export async function loadCharge(
  db: Db,
  chargeId: string,
  options: { quietPeriodMs: number },
): Promise<ChargeSnapshot | null> {
  const [row] = await db
    .select({
      charge: {
        id: charges.id,
        subscriptionId: charges.subscriptionId,
        status: charges.status,
        amountMinor: charges.amountMinor,
        currency: charges.currency,
        attemptCount: charges.attemptCount,
        nextAttemptAt: charges.nextAttemptAt,
        resumable: resumableOnNewCard,
      },
      subscription: {
        id: subscriptions.id,
        customerId: subscriptions.customerId,
        status: subscriptions.status,
      },
      paymentMethod: {
        id: paymentMethods.id,
        kind: paymentMethods.kind,
        ciphertext: paymentMethods.tokenCiphertext,
        nonce: paymentMethods.tokenNonce,
        tag: paymentMethods.tokenTag,
        keyId: paymentMethods.tokenKeyId,
        issuedAt: paymentMethods.issuedAt,
        expiresAt: paymentMethods.expiresAt,
        deactivatedAt: paymentMethods.deactivatedAt,
        unusableAt: paymentMethods.unusableAt,
      },
      openAttempt: {
        id: chargeAttempts.id,
        orderId: chargeAttempts.orderId,
        attemptNumber: chargeAttempts.attemptNumber,
        status: chargeAttempts.status,
        reconcileTries: chargeAttempts.reconcileTries,
        quiet: sentBefore(chargeAttempts.createdAt, options.quietPeriodMs),
      },
    })
    .from(charges)
    .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .leftJoin(
      chargeAttempts,
      and(eq(chargeAttempts.chargeId, charges.id), inArray(chargeAttempts.status, ["in_flight", "unknown"])),
    )
    .where(eq(charges.id, chargeId));
  if (!row) return null;

  const { charge, subscription, paymentMethod: pm, openAttempt: attempt } = row;
  return {
    charge: {
      ...charge,
      nextAttemptAt: charge.nextAttemptAt && toInstant(charge.nextAttemptAt),
      resumable: charge.resumable === true,
    },
    subscription,
    paymentMethod: pm && {
      id: pm.id,
      kind: pm.kind,
      sealed: { ciphertext: pm.ciphertext, nonce: pm.nonce, tag: pm.tag, keyId: pm.keyId },
      lifecycle: {
        issuedAt: toInstant(pm.issuedAt),
        expiresAt: toInstant(pm.expiresAt),
        deactivatedAt: pm.deactivatedAt && toInstant(pm.deactivatedAt),
        unusableAt: pm.unusableAt && toInstant(pm.unusableAt),
      },
    },
    openAttempt:
      attempt &&
      (attempt.status === "in_flight" || attempt.status === "unknown"
        ? { ...attempt, status: attempt.status, quiet: attempt.quiet === true }
        : null),
  };
}
