import type { DateTime } from "luxon";
import type { ChargeState, CollectionMethod, SubscriptionState, TokenLifecycle } from "../billing/index.js";
import type { SealedToken } from "../crypto/index.js";
import { type Db, pgInstant, pgInstantOrNull, pgInteger } from "../db/index.js";
import { resumableOnNewCard } from "./resumable.js";

/**
 * Reads, without locking and in one prepared statement for a whole batch, everything the charge
 * worker decides on: each charge, its subscription, the subscription's current card, and the
 * charge's open attempt (in_flight or unknown; the partial unique index
 * charge_attempts_one_open_per_charge guarantees there is at most one), and its last attempt when
 * that is a card decline stored without the gateway's transaction id (verify-decline.ts; found by
 * the (charge_id, attempt_number) index, one row per charge). Decisions made on this snapshot are
 * re-checked by the conditional writes that act on them (claim-batch.ts, settle-batch.ts).
 *
 * `resumable` is resumable.ts's rule (collection resumes on the subscription's new card), and
 * `quiet` quiet-period.ts's, both on Postgres's clock.
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
    readonly collectionMethod: CollectionMethod;
  };
  readonly paymentMethod: {
    readonly id: string;
    readonly kind: "recurring" | "autosave";
    /** What a recurring token was enrolled for, the only amount the gateway charges it. */
    readonly amountMinor: number | null;
    readonly sealed: SealedToken;
    readonly lifecycle: TokenLifecycle;
  } | null;
  readonly openAttempt: OpenAttempt | null;
  /** The last attempt, when it is a decline without a transaction id: to settle before any other. */
  readonly unverifiedDecline: UnverifiedDecline | null;
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

export interface UnverifiedDecline {
  readonly id: string;
  readonly orderId: string;
  readonly attemptNumber: number;
  /** Sent longer ago than the quiet period (see quiet-period.ts). */
  readonly quiet: boolean;
}

interface Row {
  id: string;
  subscription_id: string;
  status: ChargeState;
  amount_minor: string;
  currency: string;
  attempt_count: number;
  next_attempt_at: string | null;
  resumable: boolean;
  customer_id: string;
  subscription_status: SubscriptionState;
  collection_method: CollectionMethod;
  pm_id: string | null;
  pm_kind: "recurring" | "autosave";
  pm_amount_minor: string | null;
  token_ciphertext: Buffer;
  token_nonce: Buffer;
  token_tag: Buffer;
  token_key_id: string;
  issued_at: string;
  expires_at: string;
  deactivated_at: string | null;
  unusable_at: string | null;
  attempt_id: string | null;
  order_id: string;
  attempt_number: number;
  attempt_status: "in_flight" | "unknown";
  reconcile_tries: number;
  quiet: boolean;
  unverified_id: string | null;
  unverified_order_id: string;
  unverified_attempt_number: number;
  unverified_quiet: boolean;
}

/** The snapshots of the charges that exist, by id. */
export async function loadCharges(
  db: Db,
  chargeIds: readonly string[],
  options: { quietPeriodMs: number },
): Promise<Map<string, ChargeSnapshot>> {
  const quietSeconds = quietSecondsOf(options.quietPeriodMs);
  const quietSince = db.$client`now() - make_interval(secs => ${quietSeconds}::double precision)`;
  const rows = await db.$client<Row[]>`
    select c.id, c.subscription_id, c.status, c.amount_minor, c.currency, c.attempt_count,
           c.next_attempt_at,
           ${resumableOnNewCard(db.$client)} as resumable,
           s.customer_id, s.status as subscription_status, s.collection_method,
           pm.id as pm_id, pm.kind as pm_kind, pm.amount_minor as pm_amount_minor, pm.token_ciphertext, pm.token_nonce, pm.token_tag,
           pm.token_key_id, pm.issued_at, pm.expires_at, pm.deactivated_at, pm.unusable_at,
           a.id as attempt_id, a.order_id, a.attempt_number, a.status as attempt_status,
           a.reconcile_tries,
           a.created_at <= ${quietSince} as quiet,
           u.id as unverified_id, u.order_id as unverified_order_id,
           u.attempt_number as unverified_attempt_number,
           u.created_at <= ${quietSince} as unverified_quiet
    from charges c
    join subscriptions s on s.id = c.subscription_id
    left join payment_methods pm on pm.id = s.payment_method_id
    left join charge_attempts a on a.charge_id = c.id and a.status in ('in_flight', 'unknown')
    left join lateral (
      select last.* from (
        select * from charge_attempts l where l.charge_id = c.id order by l.attempt_number desc limit 1
      ) last
      where last.status = 'declined' and last.gateway_transaction_id is null and last.channel = 'card_token'
    ) u on true
    where c.id = any(${[...chargeIds]}::uuid[])`;
  return new Map(rows.map((row) => [row.id, snapshotOf(row)]));
}

/** One charge's snapshot, or null when it does not exist. */
export async function loadCharge(
  db: Db,
  chargeId: string,
  options: { quietPeriodMs: number },
): Promise<ChargeSnapshot | null> {
  return (await loadCharges(db, [chargeId], options)).get(chargeId) ?? null;
}

function quietSecondsOf(quietPeriodMs: number): number {
  if (!Number.isFinite(quietPeriodMs) || quietPeriodMs < 0) {
    throw new RangeError(`quietPeriodMs must be >= 0, got ${quietPeriodMs}`);
  }
  return quietPeriodMs / 1000;
}

function snapshotOf(row: Row): ChargeSnapshot {
  return {
    charge: {
      id: row.id,
      subscriptionId: row.subscription_id,
      status: row.status,
      amountMinor: pgInteger(row.amount_minor),
      currency: row.currency,
      attemptCount: row.attempt_count,
      nextAttemptAt: pgInstantOrNull(row.next_attempt_at),
      resumable: row.resumable === true,
    },
    subscription: {
      id: row.subscription_id,
      customerId: row.customer_id,
      status: row.subscription_status,
      collectionMethod: row.collection_method,
    },
    paymentMethod:
      row.pm_id === null
        ? null
        : {
            id: row.pm_id,
            kind: row.pm_kind,
            amountMinor: row.pm_amount_minor === null ? null : pgInteger(row.pm_amount_minor),
            sealed: {
              ciphertext: row.token_ciphertext,
              nonce: row.token_nonce,
              tag: row.token_tag,
              keyId: row.token_key_id,
            },
            lifecycle: {
              issuedAt: pgInstant(row.issued_at),
              expiresAt: pgInstant(row.expires_at),
              deactivatedAt: pgInstantOrNull(row.deactivated_at),
              unusableAt: pgInstantOrNull(row.unusable_at),
            },
          },
    openAttempt:
      row.attempt_id === null
        ? null
        : {
            id: row.attempt_id,
            orderId: row.order_id,
            attemptNumber: row.attempt_number,
            status: row.attempt_status,
            reconcileTries: row.reconcile_tries,
            quiet: row.quiet === true,
          },
    unverifiedDecline:
      row.unverified_id === null
        ? null
        : {
            id: row.unverified_id,
            orderId: row.unverified_order_id,
            attemptNumber: row.unverified_attempt_number,
            quiet: row.unverified_quiet === true,
          },
  };
}
