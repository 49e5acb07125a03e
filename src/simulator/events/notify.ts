import { toDecimalString } from "../../money/index.js";
import type { CheckoutSession } from "../checkout/checkout-session.js";
import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { isoOf } from "../support/time.js";

/**
 * After a checkout payment is recorded: the webhook (when the account has one) and the push
 * notification (when the request carried a push token; recorded in the ledger, never sent).
 * Collections by GetnewPayment notify nobody: their reply carries the result.
 */
export function notifyMerchant(
  core: SimulatorCore,
  session: CheckoutSession,
  merchant: MerchantAccount,
): void {
  const payment = session.payment;
  const status = payment.status === "SUCCESS" ? "SUCCESS" : "FAILURE";
  const at = isoOf(core.now());
  if (merchant.webhookUrl !== null) {
    const params: Record<string, string> =
      session.flow.kind === "v1"
        ? {
            transaction_id: payment.transactionId,
            order_id: payment.orderId ?? "",
            mode: payment.mode,
            response_code: payment.responseCode ?? "",
            description: payment.description,
          }
        : {
            transid: payment.transactionId,
            orderId: payment.orderId ?? "",
            status,
            ...(status === "FAILURE" ? { Failuredescription: payment.description } : {}),
          };
    core.webhooks.dispatch(
      {
        interface: session.flow.kind,
        transaction_id: payment.transactionId,
        order_id: payment.orderId,
        params,
        at,
      },
      merchant.webhookUrl,
    );
  }
  if (session.pushToken !== null) {
    const amount = `${toDecimalString(payment.amountMinor, payment.currency)} ${payment.currency}`;
    core.events.pushes.push({
      push_token: session.pushToken,
      transaction_id: payment.transactionId,
      order_id: payment.orderId,
      status,
      message:
        status === "SUCCESS"
          ? `Payment of ${amount} succeeded`
          : `Payment of ${amount} failed: ${payment.description}`,
      at,
    });
  }
}
