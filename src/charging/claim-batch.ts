import type { DateTime } from "luxon";
import { assertChargeTransition, type ChargeState } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { SqlState, type SqlTx, violates } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import { chargeOrderId } from "./order-id.js";

/**
 * Rule: an attempt is recorded, with its orderId, and COMMITTED before the gateway is called, so
 * that a crash at any later point leaves a row naming exactly what to ask CheckStatus about. A batch
 * is claimed in one transaction of three prepared statements: one UPDATE of the charges, one
 * multi-row INSERT of their attempts, one of their `charge.attempt_started` events.
 *
 * Only one worker can claim a charge. The claim is a compare-and-set on the charge as the caller
 * saw it (status and attempt_count): the rows are locked in id order and re-read, so of two workers
 * holding the same snapshot one moves the charge to `processing` with attempt_count + 1 and the
 * other matches nothing and learns it was claimed elsewhere. The claim waits for a row another
 * transaction holds rather than skipping it (SKIP LOCKED would report a charge that the scheduler
 * or a settlement briefly holds as claimed elsewhere, and leave it uncollected until its dispatch is
 * overdue). Behind that, the partial unique index charge_attempts_one_open_per_charge refuses a
 * second open attempt and (charge_id, attempt_number) a second attempt of one number. A unique
 * violation or a deadlock rolls the batch back; its charges are then claimed one at a time, so one
 * charge that cannot be claimed does not hold back the others.
 *
 * Claiming clears dispatched_at: the scheduler dispatches the charge's next attempt afresh. The
 * attempt's created_at is the moment of its insert (clock_timestamp), not the transaction's start:
 * the quiet period counts from it, and a claim that waited on a lock must not look older than it is.
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

export interface ClaimOptions {
  readonly actor: string;
  readonly forced: boolean;
}

/** Returns the attempts recorded, by charge id; a charge claimed elsewhere is absent. */
export async function claimBatch(
  ctx: Pick<EngineContext, "db" | "clock">,
  charges: readonly ClaimedCharge[],
  options: ClaimOptions,
): Promise<Map<string, RecordedAttempt>> {
  for (const charge of charges) assertChargeTransition(charge.status, "processing");
  if (charges.length === 0) return new Map();
  try {
    return await ctx.db.$client.begin((tx) => claimIn(tx, ctx.clock.now(), charges, options));
  } catch (error) {
    if (!violates(error, SqlState.uniqueViolation) && !violates(error, SqlState.deadlockDetected))
      throw error;
    if (charges.length === 1) return new Map();
  }
  const claimed = new Map<string, RecordedAttempt>();
  for (const charge of charges) {
    for (const [id, attempt] of await claimBatch(ctx, [charge], options)) claimed.set(id, attempt);
  }
  return claimed;
}

/** One charge's claim: its attempt, or null when someone else is already charging it. */
export async function recordAttempt(
  ctx: Pick<EngineContext, "db" | "clock">,
  charge: ClaimedCharge,
  options: ClaimOptions,
): Promise<RecordedAttempt | null> {
  return (await claimBatch(ctx, [charge], options)).get(charge.id) ?? null;
}

async function claimIn(
  tx: SqlTx,
  now: DateTime,
  charges: readonly ClaimedCharge[],
  options: ClaimOptions,
): Promise<Map<string, RecordedAttempt>> {
  const claimed = await tx<{ id: string; attempt_count: number; subscription_id: string }[]>`
    update charges c set
      status = 'processing', attempt_count = c.attempt_count + 1, next_attempt_at = null,
      dispatched_at = null
    from (
      select ch.id from charges ch
      join unnest(
        ${charges.map((c) => c.id)}::uuid[], ${charges.map((c) => c.status)}::text[],
        ${charges.map((c) => c.attemptCount)}::int[]
      ) as seen(id, status, attempt_count)
        on ch.id = seen.id and ch.status::text = seen.status and ch.attempt_count = seen.attempt_count
      order by ch.id
      for update of ch
    ) as picked
    where c.id = picked.id
    returning c.id, c.attempt_count, c.subscription_id`;
  if (claimed.length === 0) return new Map();

  const orderIds = claimed.map((row) => chargeOrderId(row.id, row.attempt_count));
  const attempts = await tx<{ id: string; charge_id: string }[]>`
    insert into charge_attempts (charge_id, order_id, attempt_number, status, created_at)
    select a.charge_id, a.order_id, a.attempt_number, 'in_flight', clock_timestamp()
    from unnest(
      ${claimed.map((row) => row.id)}::uuid[], ${orderIds}::text[],
      ${claimed.map((row) => row.attempt_count)}::int[]
    ) as a(charge_id, order_id, attempt_number)
    returning id, charge_id`;
  const attemptIds = new Map(attempts.map((row) => [row.charge_id, row.id]));

  const recorded = new Map<string, RecordedAttempt>();
  claimed.forEach((row, index) => {
    const id = attemptIds.get(row.id);
    if (!id) throw new Error(`the attempt of charge ${row.id} was not recorded`);
    recorded.set(row.id, {
      id,
      chargeId: row.id,
      orderId: orderIds[index]!,
      attemptNumber: row.attempt_count,
    });
  });
  await recordEvents(
    tx,
    [...recorded.values()].map((attempt, index) => ({
      type: "charge.attempt_started",
      actor: options.actor,
      occurredAt: now,
      subscriptionId: claimed[index]!.subscription_id,
      chargeId: attempt.chargeId,
      data: { attempt: attempt.attemptNumber, order_id: attempt.orderId, forced: options.forced },
    })),
  );
  return recorded;
}
