import {
  type ChargeKind,
  type ChargeLineKind,
  type DocumentSeries,
  formatDocumentNumber,
  includedTax,
} from "../billing/index.js";
import type {
  DocumentLine,
  DocumentModel,
  DocumentPayment,
  DocumentRefund,
  MerchantIdentity,
} from "./model.js";

/**
 * A document's model from the rows it is printed from. The table shows the charge as it was
 * billed: its stored lines (the plan at its quantity, add-ons, one-offs), or the plan at its price
 * (what was paid plus what came off it) for a charge without, then each deduction, so the rows add
 * up to the charge. The total and the tax come from the document's own row, as issued:
 * a later change of tax settings never changes a document the customer already has.
 */

export interface ChargeFacts {
  kind: ChargeKind;
  /** The lines the charge stored; none for a charge of its plan alone at quantity 1. */
  lines: readonly { kind: ChargeLineKind; description: string; quantity: number; amountMinor: number }[];
  planName: string;
  periodStart: Date;
  periodEnd: Date;
  amountMinor: number;
  discountMinor: number;
  discountPercent: number | null;
  creditMinor: number;
}

export interface DocumentFacts {
  series: DocumentSeries;
  number: number;
  issuedAt: Date;
  amountMinor: number;
  currency: string;
  taxRateBp: number;
  taxLabel: string;
  timeZone: string;
  charge: ChargeFacts;
  customer: DocumentModel["customer"];
  payment: DocumentPayment;
  refund: DocumentRefund | null;
}

export function chargeLines(charge: ChargeFacts): DocumentLine[] {
  const lines: DocumentLine[] =
    charge.lines.length > 0
      ? charge.lines.map((line) => {
          // What recurs, and usage, covers the period; a one-off does not.
          const periodic = line.kind !== "one_off";
          return {
            kind: "item",
            description: line.description,
            quantity: line.quantity,
            periodStart: periodic ? charge.periodStart : null,
            periodEnd: periodic ? charge.periodEnd : null,
            amountMinor: line.amountMinor,
          };
        })
      : [
          {
            kind: "plan",
            planName: charge.planName,
            planChange: charge.kind === "plan_change",
            periodStart: charge.periodStart,
            periodEnd: charge.periodEnd,
            amountMinor: charge.amountMinor + charge.discountMinor + charge.creditMinor,
          },
        ];
  if (charge.discountMinor > 0)
    lines.push({
      kind: "discount",
      couponPercent: charge.discountPercent,
      amountMinor: -charge.discountMinor,
    });
  if (charge.creditMinor > 0) lines.push({ kind: "credit", amountMinor: -charge.creditMinor });
  return lines;
}

export function documentModel(facts: DocumentFacts, merchant: MerchantIdentity): DocumentModel {
  const taxMinor = includedTax(facts.amountMinor, facts.taxRateBp);
  return {
    kind: facts.series,
    number: formatDocumentNumber(facts.series, facts.number),
    issuedAt: facts.issuedAt,
    timeZone: facts.timeZone,
    currency: facts.currency,
    merchant,
    customer: facts.customer,
    lines: chargeLines(facts.charge),
    subtotalMinor: facts.amountMinor - taxMinor,
    tax:
      facts.taxRateBp === 0
        ? null
        : { label: facts.taxLabel, rateBp: facts.taxRateBp, includedMinor: taxMinor },
    totalMinor: facts.amountMinor,
    payment: facts.payment,
    refund: facts.refund,
  };
}
