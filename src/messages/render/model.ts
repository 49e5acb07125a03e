/**
 * What a customer message says, as the engine hands it over: one variant per kind, raw values only
 * (integer minor units, ISO dates). Wording, formatting and layout belong to the templates and to
 * this module's formatters, so the outbox stores facts and a message can be rendered again later.
 */

export { MESSAGE_KINDS, type MessageKind } from "../../billing/index.js";

export const MESSAGE_LANGUAGES = ["en", "ar"] as const;

export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

export interface Merchant {
  name: string;
  logoUrl: string | null;
  supportEmail: string | null;
}

/** Integer minor units of an ISO 4217 currency (fils for QAR). */
export interface Amount {
  minor: number;
  currency: string;
}

/** A row of a receipt's itemised amount: a line its charge stored, or what came off them (negative). */
export type ReceiptLine =
  | { kind: "item"; description: string; quantity: number; amount: Amount }
  | { kind: "discount"; percent: number | null; amount: Amount }
  | { kind: "credit"; amount: Amount };

export type MessageModel =
  | {
      kind: "receipt";
      receiptNumber: string;
      amount: Amount;
      planName: string;
      /** Adding up to `amount`; none for a charge of its plan alone at quantity 1, which planName says. */
      lines: ReceiptLine[];
      /** ISO date, yyyy-mm-dd. */
      periodStart: string;
      periodEnd: string;
      /** ISO date-time with offset. */
      paidAt: string;
      cardLast4: string | null;
      transactionId: string | null;
      receiptUrl: string;
      pdfUrl: string;
    }
  | {
      kind: "payment_due";
      amount: Amount;
      planName: string;
      periodStart: string;
      periodEnd: string;
      payUrl: string;
      /** 0 for the first notice, n for the nth reminder. */
      reminder: number;
      payBy: string | null;
    }
  | {
      kind: "payment_failed";
      amount: Amount;
      planName: string;
      reason: string | null;
      fixUrl: string | null;
      fixKind: "new_card" | "payment_link" | null;
      nextAttemptAt: string | null;
    }
  | { kind: "card_expiring"; cardLast4: string | null; expiresOn: string; newCardUrl: string | null }
  | {
      kind: "renewal_upcoming";
      amount: Amount;
      planName: string;
      renewsOn: string;
      portalUrl: string | null;
      trialConverts: boolean;
    }
  | {
      kind: "trial_ending";
      amount: Amount;
      planName: string;
      trialEndsOn: string;
      portalUrl: string | null;
      hasCard: boolean;
      /** The first charge comes as a payment link (a trial without a card): nothing is charged by itself. */
      paysByLink: boolean;
    }
  | { kind: "subscription_canceled"; planName: string; canceledOn: string; endsOn: string | null }
  | {
      kind: "refund_issued";
      amount: Amount;
      creditNoteNumber: string;
      receiptNumber: string | null;
      creditNoteUrl: string;
      pdfUrl: string;
      processing: boolean;
    };

export interface RenderInput {
  model: MessageModel;
  language: MessageLanguage;
  merchant: Merchant;
  customer: { name: string | null; email: string };
  /** IANA zone the customer's dates are shown in. */
  timeZone: string;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  language: MessageLanguage;
}
