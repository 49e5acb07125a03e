import { pgError } from "../db/index.js";

/** Deadlock detected, and serialization failure: Postgres rolled the transaction back; run it again. */
const RETRYABLE = new Set(["40P01", "40001"]);
const ATTEMPTS = 3;

/**
 * Runs a transaction again when Postgres aborted it for a deadlock. Other engines lock the same
 * rows in their own order (the charging engine locks a charge, then the card, then the
 * subscription), so a rare deadlock with them is expected; the rolled-back attempt changed
 * nothing, so running it again is safe.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      const code = pgError(error)?.code;
      if (attempt >= ATTEMPTS || code === undefined || !RETRYABLE.has(code)) throw error;
    }
  }
}
