/** Gateway invoices for charges that stay unpaid once dunning ends. */
export { createInvoiceForCharge, InvoiceChargeNotFoundError, type InvoiceOutcome } from "./create-invoice.js";
export { type InvoiceFacts, invoiceRequestFor, itemDescription } from "./invoice-request.js";
export { startInvoiceWorker } from "./worker.js";
