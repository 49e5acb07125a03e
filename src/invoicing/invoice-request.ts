import type { DateTime } from "luxon";
import type { InvoiceRequest } from "../gateway/index.js";

/**
 * The gateway invoice for a charge that stayed unpaid. Rule: the invoice `number` is OUR charge id.
 * The gateway refuses a number it already holds, so sending the same request again (after a lost
 * reply, or from a second worker) can never make a second invoice for one charge.
 *
 * A detailed invoice with one item: the plan for the charge's period, at the charge's amount, in the
 * charge's currency, addressed to the customer, in status `sent` (it asks to be paid, so it carries
 * no payments).
 */

export interface InvoiceFacts {
  chargeId: string;
  amountMinor: number;
  currency: string;
  periodStart: DateTime;
  periodEnd: DateTime;
  /** IANA zone of the subscription: the period is shown on the customer's calendar. */
  timezone: string;
  plan: { name: string; productId: string | null };
  customer: { email: string; name: string | null; phone: string | null; language: "en" | "ar" };
  /** The invoice date, on the billing clock. */
  issuedAt: DateTime;
}

/** The gateway's limit on free text (description, client name, …). */
const MAX_TEXT = 300;

const clip = (text: string) => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`);

/** "Monthly, 2026-01-15 – 2026-02-15": the plan and the period's local dates, end exclusive. */
export function itemDescription(
  facts: Pick<InvoiceFacts, "plan" | "periodStart" | "periodEnd" | "timezone">,
) {
  const day = (instant: DateTime) => instant.setZone(facts.timezone).toISODate();
  return clip(`${facts.plan.name}, ${day(facts.periodStart)} – ${day(facts.periodEnd)}`);
}

export function invoiceRequestFor(facts: InvoiceFacts): InvoiceRequest {
  const { customer } = facts;
  return {
    type: "detailed",
    status: "sent",
    number: facts.chargeId,
    date: facts.issuedAt,
    items: [
      {
        description: itemDescription(facts),
        qty: 1,
        amount: { minor: facts.amountMinor, currency: facts.currency },
        ...(facts.plan.productId ? { productId: facts.plan.productId } : {}),
      },
    ],
    client: {
      email: customer.email,
      ...(customer.name ? { name: clip(customer.name) } : {}),
      ...(customer.phone ? { phone: customer.phone } : {}),
    },
    setting: { language: customer.language },
  };
}
