import type { MessageKind, MessageModel, RenderInput } from "../../../src/messages/render/index.js";

/** One model of each kind, every optional fact set, each URL distinct (one carries an &). */

export const AMOUNT = { minor: 123450, currency: "QAR" };
export const AMOUNT_TEXT = { en: "QAR 1,234.50", ar: "1,234.50 ر.ق." } as const;

export const MODELS: { [K in MessageKind]: Extract<MessageModel, { kind: K }> } = {
  receipt: {
    kind: "receipt",
    receiptNumber: "RCT-000042",
    amount: AMOUNT,
    planName: "Pro Monthly",
    lines: [
      { kind: "item", description: "Pro Monthly", quantity: 3, amount: { minor: 120000, currency: "QAR" } },
      {
        kind: "item",
        description: "Priority support",
        quantity: 1,
        amount: { minor: 10000, currency: "QAR" },
      },
      { kind: "discount", percent: 5, amount: { minor: -6500, currency: "QAR" } },
      { kind: "credit", amount: { minor: -50, currency: "QAR" } },
    ],
    periodStart: "2026-11-01",
    periodEnd: "2026-11-30",
    paidAt: "2026-11-01T06:05:00Z",
    cardLast4: "4242",
    transactionId: "TX-998877",
    receiptUrl: "https://pay.example.qa/receipts/r1?lang=en&x=1",
    pdfUrl: "https://pay.example.qa/receipts/r1.pdf",
  },
  payment_due: {
    kind: "payment_due",
    amount: AMOUNT,
    planName: "Pro Monthly",
    periodStart: "2026-11-01",
    periodEnd: "2026-11-30",
    payUrl: "https://pay.example.qa/pay/p1",
    reminder: 0,
    payBy: "2026-11-08",
  },
  payment_failed: {
    kind: "payment_failed",
    amount: AMOUNT,
    planName: "Pro Monthly",
    reason: "Insufficient funds",
    fixUrl: "https://pay.example.qa/card/c1",
    fixKind: "new_card",
    nextAttemptAt: "2026-11-04T05:00:00Z",
  },
  card_expiring: {
    kind: "card_expiring",
    cardLast4: "4242",
    expiresOn: "2026-11-30",
    newCardUrl: "https://pay.example.qa/card/c2",
  },
  renewal_upcoming: {
    kind: "renewal_upcoming",
    amount: AMOUNT,
    planName: "Pro Monthly",
    renewsOn: "2026-12-01",
    portalUrl: "https://pay.example.qa/portal/o1",
    trialConverts: false,
  },
  trial_ending: {
    kind: "trial_ending",
    amount: AMOUNT,
    planName: "Pro Monthly",
    trialEndsOn: "2026-12-01",
    portalUrl: "https://pay.example.qa/portal/o2",
    hasCard: true,
    paysByLink: false,
  },
  subscription_canceled: {
    kind: "subscription_canceled",
    planName: "Pro Monthly",
    canceledOn: "2026-11-20",
    endsOn: "2026-11-30",
  },
  refund_issued: {
    kind: "refund_issued",
    amount: AMOUNT,
    creditNoteNumber: "CN-000007",
    receiptNumber: "RCT-000042",
    creditNoteUrl: "https://pay.example.qa/credit-notes/n1",
    pdfUrl: "https://pay.example.qa/credit-notes/n1.pdf",
    processing: true,
  },
};

export function input(
  model: MessageModel,
  language: "en" | "ar",
  overrides: Partial<RenderInput> = {},
): RenderInput {
  return {
    model,
    language,
    merchant: { name: "Acme", logoUrl: "https://cdn.example.qa/acme.png", supportEmail: "help@acme.qa" },
    customer: { name: "Fatima", email: "fatima@example.qa" },
    timeZone: "Asia/Qatar",
    ...overrides,
  };
}

/** The URLs a model carries, which both the text and the HTML must hold in full. */
export function urlsOf(model: MessageModel): string[] {
  return Object.entries(model)
    .filter(([field, value]) => field.endsWith("Url") && typeof value === "string")
    .map(([, value]) => value as string);
}

/** Drops the Unicode isolates, to compare Arabic text with the words a reader sees. */
export function visible(text: string): string {
  return text.replace(/[\u2068\u2069]/g, "");
}
