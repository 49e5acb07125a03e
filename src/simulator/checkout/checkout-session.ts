import type { Payment } from "../payments/payment.js";
import { isoOf } from "../support/time.js";

export type CardTypeRestriction = "credit" | "debit" | "both";
export type Language = "en" | "ar";

/** What a v1 checkout request asked for. */
export interface V1Flow {
  kind: "v1";
  successUrl: string | null;
  failureUrl: string | null;
  saveToken: boolean;
}

/** What a legacy AddTransaction asked for; the redirect URLs come from the merchant account. */
export interface LegacyFlow {
  kind: "legacy";
  recurring: boolean;
  autoSave: boolean;
  isVoid: boolean;
  cardType: CardTypeRestriction;
}

/** One hosted checkout page. It is paid at most once; its payment is PENDING until then. */
export interface CheckoutSession {
  id: string;
  merchantId: number;
  flow: V1Flow | LegacyFlow;
  language: Language;
  note: string | null;
  pushToken: string | null;
  payment: Payment;
  /** Where the result page sends the client, fixed when the payment is processed. */
  redirectUrl: string | null;
  /** For isVoid payments: the outcome of the automatic return of money. */
  voidOutcome:
    | { refunded: true; refundTransactionId: string }
    | { refunded: false; description: string }
    | null;
}

/** Whether the checkout asks to save the card (a token is issued on success). */
export function savesCard(session: CheckoutSession): boolean {
  const flow = session.flow;
  return flow.kind === "v1" ? flow.saveToken : flow.recurring || flow.autoSave || flow.isVoid;
}

export class CheckoutStore {
  private readonly sessions = new Map<string, CheckoutSession>();

  add(session: CheckoutSession): void {
    this.sessions.set(session.id, session);
  }

  find(id: string): CheckoutSession | undefined {
    return this.sessions.get(id);
  }

  all(): IterableIterator<CheckoutSession> {
    return this.sessions.values();
  }

  clear(): void {
    this.sessions.clear();
  }
}

export function checkoutLedgerView(session: CheckoutSession) {
  return {
    checkout_id: session.id,
    merchant_id: session.merchantId,
    interface: session.flow.kind,
    order_id: session.payment.orderId,
    transaction_id: session.payment.transactionId,
    status: session.payment.status,
    opened_at: isoOf(session.payment.openedAt),
    redirect_url: session.redirectUrl,
  };
}
