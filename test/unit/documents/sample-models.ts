import type { DocumentModel, MerchantIdentity } from "../../../src/documents/index.js";

/** A receipt and a credit note as the loaders build them, with every optional part filled in. */

export const MERCHANT: MerchantIdentity = {
  name: "Doha Fitness Club",
  address: ["Building 12, Street 340", "West Bay, Doha, Qatar"],
  taxId: "300012345600003",
  logoUrl: null,
};

/** Price 1,450.00 less 10 % (145.00) less credit 70.50: 1,234.50 paid, 161.02 of it VAT at 15 %. */
export const RECEIPT: DocumentModel = {
  kind: "receipt",
  number: "RCT-000042",
  issuedAt: new Date("2025-01-05T07:30:00Z"),
  timeZone: "Asia/Qatar",
  currency: "QAR",
  merchant: MERCHANT,
  customer: { name: "Fatima Al-Thani", email: "fatima@example.com", language: "ar" },
  lines: [
    {
      kind: "plan",
      planName: "Gold membership",
      planChange: false,
      periodStart: new Date("2025-01-04T21:00:00Z"),
      periodEnd: new Date("2025-02-04T21:00:00Z"),
      amountMinor: 145_000,
    },
    { kind: "discount", couponPercent: 10, amountMinor: -14_500 },
    { kind: "credit", amountMinor: -7_050 },
  ],
  subtotalMinor: 107_348,
  tax: { label: "VAT", rateBp: 1_500, includedMinor: 16_102 },
  totalMinor: 123_450,
  payment: {
    cardLast4: "4242",
    transactionId: "TX-20250105-000381",
    paidAt: new Date("2025-01-05T07:29:41Z"),
  },
  refund: null,
};

export const CREDIT_NOTE: DocumentModel = {
  ...RECEIPT,
  kind: "credit_note",
  number: "CN-000007",
  issuedAt: new Date("2025-01-20T10:00:00Z"),
  refund: {
    refundedTransactionId: "TX-20250105-000381",
    refundTransactionId: "RF-20250120-000017",
    receiptNumber: "RCT-000042",
    status: "completed",
  },
};
