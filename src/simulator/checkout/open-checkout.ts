import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { Customer, PaymentOperation } from "../payments/payment.js";
import type { CheckoutSession, Language, LegacyFlow, V1Flow } from "./checkout-session.js";

export interface CheckoutRequest {
  operation: Exclude<PaymentOperation, "GetnewPayment">;
  flow: V1Flow | LegacyFlow;
  orderId: string;
  amountMinor: number;
  currency: string;
  customer: Customer;
  language: Language;
  note: string | null;
  pushToken: string | null;
}

/** Creates the hosted checkout and its PENDING payment; answers the checkout URL. */
export function openCheckout(
  core: SimulatorCore,
  merchant: MerchantAccount,
  request: CheckoutRequest,
): string {
  const now = core.now();
  const session: CheckoutSession = {
    id: core.ids.checkoutId(),
    merchantId: merchant.id,
    flow: request.flow,
    language: request.language,
    note: request.note,
    pushToken: request.pushToken,
    redirectUrl: null,
    voidOutcome: null,
    payment: {
      transactionId: core.ids.transactionId(),
      merchantId: merchant.id,
      mode: merchant.mode,
      orderId: request.orderId,
      operation: request.operation,
      amountMinor: request.amountMinor,
      currency: request.currency,
      status: "PENDING",
      description: "Awaiting card details",
      responseCode: null,
      authCode: null,
      cardToken: null,
      cardLast4: null,
      customer: request.customer,
      openedAt: now,
      createdAt: now,
      settlesAt: null,
      refund: null,
    },
  };
  core.checkouts.add(session);
  core.payments.add(session.payment);
  return checkoutUrl(core, session.id);
}

function checkoutUrl(core: SimulatorCore, id: string): string {
  return `${core.publicUrl}/checkout/${id}`;
}
