import type { DateTime } from "luxon";
import type { EngineContext } from "../context/index.js";
import { sqlOf } from "../db/index.js";
import { recordEvent } from "../events/index.js";

/**
 * How a claimed record of a paid charge at the gateway ends its attempt: created (with the
 * gateway's invoice id), due again later, given up (failed, with the reason, for a person), or
 * handed back unsent. Each changes the record row alone, only while it is still pending: the charge
 * is never touched, it stays paid whatever the gateway says. A record that ends is written with
 * its event (charge.payment_recorded, charge.payment_record_failed), so the log shows it.
 */

type Ctx = Pick<EngineContext, "db">;

export interface RecordSubjects {
  chargeId: string;
  subscriptionId: string;
  customerId: string;
}

const ACTOR = "system";

export async function recordCreated(
  ctx: Ctx,
  subjects: RecordSubjects,
  invoice: { id: number; number: string },
  now: DateTime,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const updated = await sqlOf(tx)`
      update gateway_payment_records
      set status = 'created', gateway_invoice_id = ${invoice.id}, next_attempt_at = null, last_error = null
      where charge_id = ${subjects.chargeId}::uuid and status = 'pending'
      returning charge_id`;
    if (updated.length === 0) return;
    await recordEvent(tx, {
      type: "charge.payment_recorded",
      actor: ACTOR,
      occurredAt: now,
      ...subjects,
      data: { gateway_invoice_id: invoice.id, number: invoice.number },
    });
  });
}

export async function recordFailed(
  ctx: Ctx,
  subjects: RecordSubjects,
  reason: string,
  attempts: number,
  now: DateTime,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const updated = await sqlOf(tx)`
      update gateway_payment_records
      set status = 'failed', next_attempt_at = null, last_error = ${reason}
      where charge_id = ${subjects.chargeId}::uuid and status = 'pending'
      returning charge_id`;
    if (updated.length === 0) return;
    await recordEvent(tx, {
      type: "charge.payment_record_failed",
      actor: ACTOR,
      occurredAt: now,
      ...subjects,
      data: { reason, attempts },
    });
  });
}

export async function recordRetry(ctx: Ctx, chargeId: string, reason: string, at: DateTime): Promise<void> {
  await ctx.db.$client`
    update gateway_payment_records set next_attempt_at = ${at.toUTC().toISO()}::timestamptz, last_error = ${reason}
    where charge_id = ${chargeId}::uuid and status = 'pending'`;
}

/** Claims not sent after all (the gateway went away mid-batch): the attempt is not counted. */
export async function releaseClaims(ctx: Ctx, chargeIds: readonly string[], at: DateTime): Promise<void> {
  if (chargeIds.length === 0) return;
  await ctx.db.$client`
    update gateway_payment_records
    set attempts = attempts - 1, next_attempt_at = ${at.toUTC().toISO()}::timestamptz
    where charge_id = any(${chargeIds as string[]}::uuid[]) and status = 'pending'`;
}
