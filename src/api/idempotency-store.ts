import { and, eq, isNull, lte } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { Db } from "../db/index.js";
import { idempotencyKeys } from "../db/schema/index.js";

/**
 * The Idempotency-Key table, per API key. The row is inserted BEFORE the work: the primary key
 * (api_key_id, key) then decides, atomically, which of two concurrent requests runs; the other
 * finds a row without a response and is told the first is still in progress.
 */

export interface IdempotencyRef {
  apiKeyId: string;
  key: string;
  requestHash: string;
}

export type Claim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: unknown }
  | { kind: "in_progress" }
  | { kind: "mismatch" };

const pk = (ref: IdempotencyRef) =>
  and(eq(idempotencyKeys.apiKeyId, ref.apiKeyId), eq(idempotencyKeys.key, ref.key));

/**
 * Claims `ref.key` for this request, or says what became of an earlier request with it. A record
 * older than `expiresAfter` (measured on the billing clock, like everything the engine times) is
 * forgotten: the key is claimed afresh, whatever body the old request had.
 */
export async function claimIdempotencyKey(
  db: Db,
  ref: IdempotencyRef,
  now: DateTime,
  expiresAfter: { hours: number },
): Promise<Claim> {
  const createdAt = now.toJSDate();
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ apiKeyId: ref.apiKeyId, key: ref.key, requestHash: ref.requestHash, createdAt })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { kind: "claimed" };

  // The conditional update is atomic: of two requests renewing one expired key, one wins.
  const renewed = await db
    .update(idempotencyKeys)
    .set({ requestHash: ref.requestHash, responseStatus: null, responseBody: null, createdAt })
    .where(and(pk(ref), lte(idempotencyKeys.createdAt, now.minus(expiresAfter).toJSDate())))
    .returning({ key: idempotencyKeys.key });
  if (renewed.length > 0) return { kind: "claimed" };

  // Rows are never deleted, so the row that made the insert conflict is still there.
  const [existing] = await db.select().from(idempotencyKeys).where(pk(ref));
  if (!existing) throw new Error(`idempotency key ${ref.key} conflicted but is missing`);
  if (existing.requestHash !== ref.requestHash) return { kind: "mismatch" };
  if (existing.responseStatus === null) return { kind: "in_progress" };
  return { kind: "replay", status: existing.responseStatus, body: existing.responseBody };
}

/** Stores the response of the claimed request, to be replayed from now on. */
export async function completeIdempotencyKey(
  db: Db,
  ref: IdempotencyRef,
  response: { status: number; body: unknown },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseBody: response.body })
    .where(
      and(pk(ref), eq(idempotencyKeys.requestHash, ref.requestHash), isNull(idempotencyKeys.responseStatus)),
    );
}
