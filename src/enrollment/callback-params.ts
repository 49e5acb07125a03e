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
  const values = new Set(
    Object.entries(params)
      .filter(([key]) => ORDER_ID_KEY.test(key))
      .map(([, value]) => value.trim().toLowerCase()),
  );
  if (values.size !== 1) return null;
  const [orderId] = values;
  return orderIdShape.safeParse(orderId).success ? orderId! : null;
}
