import { z } from "zod";

/**
 * Where a gateway callback came from: the customer's browser (success or failure URL), the webhook,
 * or the sweep of enrolments left pending (sweep-pending.ts).
 */
export const CALLBACK_SOURCES = ["success_return", "failure_return", "webhook", "sweep"] as const;
export type CallbackSource = (typeof CALLBACK_SOURCES)[number];

/**
 * The key of the order id in the gateway's callbacks, in every spelling it uses: `orderId`
 * (legacy redirects and webhook), `order_id` (v1) and any casing of those.
 */
const ORDER_ID_KEY = /^order_?id$/i;

const orderIdShape = z.uuid();

/**
 * The only parameter of a callback that is used: the order id, which names our enrollment. The
 * rest (status, transaction id, card token, refund outcome) is anyone's to forge, so every fact is
 * taken from the gateway's own record instead. Returns null when the order id is missing, is not
 * one of our ids (a uuid), or is given twice with different values.
 */
export function readOrderId(params: Readonly<Record<string, string>>): string | null {
  const orderId = onlyOrderId(params);
  return orderId !== null && orderIdShape.safeParse(orderId).success ? orderId : null;
}

const CHARGE_ORDER_ID = /^chg_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_[1-9][0-9]{0,8}$/;

/** The same, for an order id of a charge attempt (`chg_<charge id>_<n>`: a payment link's checkout). */
export function readChargeOrderId(params: Readonly<Record<string, string>>): string | null {
  const orderId = onlyOrderId(params);
  return orderId !== null && CHARGE_ORDER_ID.test(orderId) ? orderId : null;
}

function onlyOrderId(params: Readonly<Record<string, string>>): string | null {
  const values = new Set(
    Object.entries(params)
      .filter(([key]) => ORDER_ID_KEY.test(key))
      .map(([, value]) => value.trim().toLowerCase()),
  );
  return values.size === 1 ? [...values][0]! : null;
}
