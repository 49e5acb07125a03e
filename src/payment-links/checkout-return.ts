import { isPaymentLinkSignature } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { type CheckoutAttempt, type CheckoutOutcome, settleCheckout } from "./settle-checkout.js";

/**
 * The gateway's calls about a link's checkout: the customer's return to the link's result page,
 * and the account webhook. Only the orderId is read from them; it must name a checkout attempt
 * (of the link's own charge, for the return), and what happened is CheckStatus's word
 * (settle-checkout.ts). An attempt already settled needs no call: a replayed success URL changes
 * nothing and shows the charge as it is.
 */
type Ctx = Pick<EngineContext, "db" | "clock" | "gateway" | "logger" | "vault" | "config">;

interface AttemptRow {
  id: string;
  charge_id: string;
  order_id: string;
  attempt_number: number;
  status: string;
  watched: boolean;
  save_card: boolean;
}

/** The webhook: null when the orderId names no checkout attempt of ours. */
export async function settleCheckoutOrder(ctx: Ctx, orderId: string): Promise<CheckoutOutcome | null> {
  const attempt = await checkoutAttempt(ctx, orderId);
  if (!attempt) return null;
  return settleIfOpen(ctx, attempt);
}

export type ReturnOutcome = CheckoutOutcome | "not_found";

/** The customer's return to `/pay/<charge>/<signature>/return?order_id=…`. */
export async function settleCheckoutReturn(
  ctx: Ctx,
  chargeId: string,
  signature: string,
  orderId: string | null,
): Promise<ReturnOutcome> {
  if (!isPaymentLinkSignature(ctx, chargeId, signature)) return "not_found";
  const attempt = orderId === null ? null : await checkoutAttempt(ctx, orderId);
  if (!attempt || attempt.charge_id !== chargeId) return "pending";
  return settleIfOpen(ctx, attempt);
}

async function settleIfOpen(ctx: Ctx, row: AttemptRow): Promise<CheckoutOutcome> {
  const attempt: CheckoutAttempt = {
    id: row.id,
    chargeId: row.charge_id,
    orderId: row.order_id,
    attemptNumber: row.attempt_number,
    saveCard: row.save_card,
  };
  if (row.status === "in_flight" || row.watched) return settleCheckout(ctx, attempt);
  if (row.status === "declined") return "declined";
  return row.status === "approved" ? "paid" : "pending";
}

async function checkoutAttempt(ctx: Ctx, orderId: string): Promise<AttemptRow | undefined> {
  const [row] = await ctx.db.$client<AttemptRow[]>`
    select id, charge_id, order_id, attempt_number, status::text as status, save_card,
      (status = 'failed_permanently' and late_check_at is not null) as watched
    from charge_attempts where order_id = ${orderId} and channel = 'checkout'`;
  return row;
}
