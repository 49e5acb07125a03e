/**
 * The gateway orderId of one charge attempt: `chg_<charge id>_<attempt number>`.
 *
 * Derived from domain ids, never random, so that:
 * - it is unique per attempt (charge_attempts.order_id is unique) and a retry never reuses it: the
 *   gateway does not check orderId uniqueness, so reusing one would make CheckStatus ambiguous;
 * - whoever holds the attempt row (a restarted worker, an operator) can ask CheckStatus about
 *   exactly that call and nothing else.
 */
export function chargeOrderId(chargeId: string, attemptNumber: number): string {
  if (chargeId.trim() === "") throw new RangeError("chargeId must not be empty");
  if (!Number.isSafeInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attempt number must be a whole number from 1, got ${attemptNumber}`);
  }
  return `chg_${chargeId}_${attemptNumber}`;
}
