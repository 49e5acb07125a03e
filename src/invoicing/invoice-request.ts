import type { DateTime } from "luxon";
import type { ChargeKind } from "../billing/index.js";
import type { InvoiceDiscount, InvoiceRequest } from "../gateway/index.js";

/**
 * The gateway invoice for a charge that stayed unpaid. Rule: the invoice `number` is OUR charge id.
 * The gateway refuses a number it already holds, so sending the same request again (after a lost
 * reply, or from a second worker) can never make a second invoice for one charge.
 *
 * A detailed invoice with one item: the plan for the charge's period, at its price before discount
 * and credit, in the charge's currency, addressed to the customer, in status `sent` (it asks to be
 * paid, so it carries no payments). What came off the price goes in setting.discount, so the
 * invoice's total is the charge's amount to the minor unit: a coupon's percentage alone is sent as
 * `percentage` (the gateway rounds it half up, as we did); anything else (a fixed coupon, credit,
 * or both kinds) as the exact `fixed` amount.
 */

export interface InvoiceFacts {
  chargeId: string;
  /** What the charge asks for: the price less discountMinor and creditMinor. */
  amountMinor: number;
  discountMinor: number;
  discountPercent: number | null;
  creditMinor: number;
  /** A plan change's own charge is described as the change. */
  kind: ChargeKind;
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

/**
 * "Monthly, 2026-01-15 – 2026-02-15": the plan and the period's local dates, end exclusive; a plan
 * change's charge, a period's usage and a one-off charge say what they are.
 */
export function itemDescription(
  facts: Pick<InvoiceFacts, "plan" | "periodStart" | "periodEnd" | "timezone"> &
    Partial<Pick<InvoiceFacts, "kind">>,
) {
  const day = (instant: DateTime) => instant.setZone(facts.timezone).toISODate();
  const what = {
    period: facts.plan.name,
    plan_change: `Change to ${facts.plan.name}`,
    usage: `Usage of ${facts.plan.name}`,
    one_off: `One-off charge, ${facts.plan.name}`,
  }[facts.kind ?? "period"];
  return clip(`${what}, ${day(facts.periodStart)} – ${day(facts.periodEnd)}`);
}

function discountOf(facts: InvoiceFacts): InvoiceDiscount | undefined {
  const off = facts.discountMinor + facts.creditMinor;
  if (off === 0) return undefined;
  if (facts.creditMinor === 0 && facts.discountPercent !== null) {
    return { type: "percentage", percent: facts.discountPercent };
  }
  return { type: "fixed", amount: { minor: off, currency: facts.currency } };
}

export function invoiceRequestFor(facts: InvoiceFacts): InvoiceRequest {
  const { customer } = facts;
  const discount = discountOf(facts);
  const priceMinor = facts.amountMinor + facts.discountMinor + facts.creditMinor;
  return {
    type: "detailed",
    status: "sent",
    number: facts.chargeId,
    date: facts.issuedAt,
    items: [
      {
        description: itemDescription(facts),
        qty: 1,
        amount: { minor: priceMinor, currency: facts.currency },
        ...(facts.plan.productId ? { productId: facts.plan.productId } : {}),
      },
    ],
    client: {
      email: customer.email,
      ...(customer.name ? { name: clip(customer.name) } : {}),
      ...(customer.phone ? { phone: customer.phone } : {}),
    },
    setting: { language: customer.language, ...(discount ? { discount } : {}) },
  };
}
