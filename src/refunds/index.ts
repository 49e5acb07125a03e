/**
 * Refunds of paid charges: the refund call (v1 POST /v1/payments/refund), the reconciler that
 * settles refunds whose answer was never recorded, from the gateway's CheckStatus, and the refund
 * state each charge shows.
 */
export { chargeRefunds } from "./charge-refunds.js";
export { RefundError, type RefundRefusal } from "./errors.js";
export {
  RECONCILER_ACTOR,
  type ReconcileRefundOptions,
  type ReconcileRefundResult,
  RefundNotFoundError,
  reconcileRefund,
  refundVerdict,
} from "./reconcile-refund.js";
export { type RefundChargeInput, refundCharge } from "./refund-charge.js";
export { refundDuplicate } from "./refund-duplicate.js";
export { findRefund, listRefunds } from "./refund-reads.js";
export { OPEN_REFUND_STATUSES, type RefundRow } from "./settle.js";
