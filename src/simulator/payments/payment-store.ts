import type { Payment, Refund } from "./payment.js";

/**
 * Payments by transaction id and by (merchant, orderId), in creation order, plus the refunds. Every
 * lookup the API needs is a map access, so throughput does not fall as the ledger grows.
 */
export class PaymentStore {
  private readonly list: Payment[] = [];
  private readonly byTransaction = new Map<string, Payment>();
  private readonly byOrder = new Map<string, Payment[]>();
  readonly refunds: Refund[] = [];

  add(payment: Payment): void {
    this.list.push(payment);
    this.byTransaction.set(payment.transactionId, payment);
    if (payment.orderId === null) return;
    const key = orderKey(payment.merchantId, payment.orderId);
    const existing = this.byOrder.get(key);
    if (existing) existing.push(payment);
    else this.byOrder.set(key, [payment]);
  }

  findByTransaction(merchantId: number, transactionId: string): Payment | undefined {
    const payment = this.byTransaction.get(transactionId);
    return payment?.merchantId === merchantId ? payment : undefined;
  }

  /** The latest payment for the orderId, or the one with that transaction id when given. */
  latestForOrder(merchantId: number, orderId: string, transactionId?: string): Payment | undefined {
    const payments = this.byOrder.get(orderKey(merchantId, orderId));
    if (!payments) return undefined;
    for (let i = payments.length - 1; i >= 0; i--) {
      const payment = payments[i]!;
      if (transactionId === undefined || payment.transactionId === transactionId) return payment;
    }
    return undefined;
  }

  /** The latest successful payment for the orderId (narrowed by transaction id), the one a refund targets. */
  latestPaidForOrder(merchantId: number, orderId: string, transactionId?: string): Payment | undefined {
    const payments = this.byOrder.get(orderKey(merchantId, orderId));
    if (!payments) return undefined;
    for (let i = payments.length - 1; i >= 0; i--) {
      const payment = payments[i]!;
      if (payment.status !== "SUCCESS") continue;
      if (transactionId === undefined || payment.transactionId === transactionId) return payment;
    }
    return undefined;
  }

  addRefund(refund: Refund): void {
    this.refunds.push(refund);
  }

  all(): readonly Payment[] {
    return this.list;
  }

  clear(): void {
    this.list.length = 0;
    this.byTransaction.clear();
    this.byOrder.clear();
    this.refunds.length = 0;
  }
}

function orderKey(merchantId: number, orderId: string): string {
  return `${merchantId}\u0000${orderId}`;
}
