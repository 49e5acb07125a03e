/**
 * Late payments: attempts we closed as "no money moved" stay watched, since a gateway may apply a
 * payment after we stopped waiting; one found late pays its charge, or, when another attempt had
 * paid the period, is refunded automatically as a duplicate.
 */
export { applyLatePayment, type LatePayment, type LateResolution } from "./apply-late-payment.js";
export { checkLatePayments, type LateCheckCounts, lateChecksDue } from "./check-late-payments.js";
export { duplicatesOwed, refundDuplicates } from "./refund-duplicates.js";
export { type LatePaymentReport, latePaymentReport } from "./report.js";
