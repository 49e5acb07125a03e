import { and, eq, isNull, ne } from "drizzle-orm";
import type { DateTime } from "luxon";
import { toInstant } from "../clock/index.js";
import type { EngineContext } from "../context/index.js";
import { paymentMethods, subscriptions } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { GatewayNotFoundError, GatewayRejectedError } from "../gateway/index.js";

/**
 * deactivateToken: stops a saved card at the gateway (legacy StopRecurring) so it can never be
 * charged again, and records that. Rules:
 * - a card that is the current card of a subscription that is not canceled is NOT stopped (a
 *   token stopped by mistake cannot be revived; the customer would have to enrol again);
 * - success → deactivated_at and deactivation_reason set, `payment_method.deactivated` recorded;
 * - result -7 ("no recurring or autosave payment for this token") means the gateway no longer has
 *   the token live: it was stopped before (e.g. our earlier request whose reply was lost) or it
 *   expired. Either way it cannot be charged, which is what we wanted, so it counts as deactivated
 *   with that reason and `gateway_result: "not_found"`;
 * - a transport failure (or an unexplained result code) throws, so the job retries with backoff;
 *   repeating StopRecurring is safe, since a second call answers -7;
 * - any other refusal (bad credentials, bad request) is recorded as
 *   `payment_method.deactivation_failed` and thrown as TokenDeactivationRefusedError, which retrying
 *   cannot fix; the card stays marked live, so it shows up for an operator.
 * The token is decrypted only for the call and never logged.
 */

export type DeactivationOutcome =
  | {
      kind: "deactivated";
      paymentMethodId: string;
      deactivatedAt: DateTime;
      gatewayResult: "stopped" | "not_found";
    }
  | { kind: "already_deactivated"; paymentMethodId: string; deactivatedAt: DateTime }
  | { kind: "in_use"; paymentMethodId: string; subscriptionId: string };

export class PaymentMethodNotFoundError extends Error {
  override name = "PaymentMethodNotFoundError";
  constructor(readonly paymentMethodId: string) {
    super(`no payment method ${paymentMethodId}`);
  }
}

export class TokenDeactivationRefusedError extends Error {
  override name = "TokenDeactivationRefusedError";
  constructor(
    readonly paymentMethodId: string,
    override readonly cause: GatewayRejectedError,
  ) {
    super(`StopRecurring refused for payment method ${paymentMethodId}: ${cause.message}`, { cause });
  }
}

const ACTOR = "system";

const REASONS = {
  stopped: "stopped with StopRecurring",
  not_found: "StopRecurring answered -7: the gateway holds no live token (stopped before or expired)",
} as const;

type PaymentMethodRow = typeof paymentMethods.$inferSelect;

export async function deactivateToken(
  ctx: EngineContext,
  paymentMethodId: string,
): Promise<DeactivationOutcome> {
  const [card] = await ctx.db.select().from(paymentMethods).where(eq(paymentMethods.id, paymentMethodId));
  if (!card) throw new PaymentMethodNotFoundError(paymentMethodId);
  if (card.deactivatedAt) {
    return { kind: "already_deactivated", paymentMethodId, deactivatedAt: toInstant(card.deactivatedAt) };
  }
  const [user] = await ctx.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.paymentMethodId, card.id), ne(subscriptions.status, "canceled")))
    .limit(1);
  if (user) {
    ctx.logger.warn({ paymentMethodId, subscriptionId: user.id }, "card still in use; not stopping it");
    return { kind: "in_use", paymentMethodId, subscriptionId: user.id };
  }

  const cardToken = ctx.vault.decrypt({
    ciphertext: card.tokenCiphertext,
    nonce: card.tokenNonce,
    tag: card.tokenTag,
    keyId: card.tokenKeyId,
  });
  let gatewayResult: "stopped" | "not_found";
  try {
    await ctx.gateway.legacy.stopRecurring({ cardToken });
    gatewayResult = "stopped";
  } catch (error) {
    if (error instanceof GatewayNotFoundError && error.code === -7) gatewayResult = "not_found";
    else if (error instanceof GatewayRejectedError) throw await refused(ctx, card, error);
    else throw error;
  }
  return settle(ctx, card, gatewayResult);
}

async function settle(
  ctx: EngineContext,
  card: PaymentMethodRow,
  gatewayResult: "stopped" | "not_found",
): Promise<DeactivationOutcome> {
  const now = ctx.clock.now();
  const deactivatedAt = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(paymentMethods)
      .set({ deactivatedAt: now.toJSDate(), deactivationReason: REASONS[gatewayResult] })
      .where(and(eq(paymentMethods.id, card.id), isNull(paymentMethods.deactivatedAt)))
      .returning({ deactivatedAt: paymentMethods.deactivatedAt });
    // A concurrent run settled it first; its record stands.
    if (!updated) return undefined;
    await recordEvent(tx, {
      type: "payment_method.deactivated",
      actor: ACTOR,
      occurredAt: now,
      customerId: card.customerId,
      subscriptionId: card.subscriptionId,
      data: { payment_method_id: card.id, gateway_result: gatewayResult, reason: REASONS[gatewayResult] },
    });
    return now;
  });
  if (!deactivatedAt) {
    const [row] = await ctx.db
      .select({ deactivatedAt: paymentMethods.deactivatedAt })
      .from(paymentMethods)
      .where(eq(paymentMethods.id, card.id));
    return {
      kind: "already_deactivated",
      paymentMethodId: card.id,
      deactivatedAt: toInstant(row?.deactivatedAt ?? now),
    };
  }
  ctx.logger.info({ paymentMethodId: card.id, gatewayResult }, "card token deactivated");
  return { kind: "deactivated", paymentMethodId: card.id, deactivatedAt, gatewayResult };
}

async function refused(
  ctx: EngineContext,
  card: PaymentMethodRow,
  error: GatewayRejectedError,
): Promise<TokenDeactivationRefusedError> {
  await recordEvent(ctx.db, {
    type: "payment_method.deactivation_failed",
    actor: ACTOR,
    occurredAt: ctx.clock.now(),
    customerId: card.customerId,
    subscriptionId: card.subscriptionId,
    data: { payment_method_id: card.id, code: error.code, description: error.description },
  });
  ctx.logger.error({ paymentMethodId: card.id, err: error }, "StopRecurring refused");
  return new TokenDeactivationRefusedError(card.id, error);
}
