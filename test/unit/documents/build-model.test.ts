import { describe, expect, it } from "vitest";
import {
  type ChargeFacts,
  chargeLines,
  type DocumentFacts,
  documentModel,
} from "../../../src/documents/build-model.js";
import { MERCHANT } from "./sample-models.js";

const PERIOD = { periodStart: new Date("2025-01-04T21:00:00Z"), periodEnd: new Date("2025-02-04T21:00:00Z") };

const charge = (over: Partial<ChargeFacts> = {}): ChargeFacts => ({
  kind: "period",
  lines: [],
  planName: "Gold",
  ...PERIOD,
  amountMinor: 10_000,
  discountMinor: 0,
  discountPercent: null,
  creditMinor: 0,
  ...over,
});

const facts = (over: Partial<DocumentFacts> = {}): DocumentFacts => ({
  series: "receipt",
  number: 42,
  issuedAt: new Date("2025-01-05T07:30:00Z"),
  amountMinor: 11_500,
  currency: "QAR",
  taxRateBp: 1_500,
  taxLabel: "VAT",
  timeZone: "Asia/Qatar",
  charge: charge({ amountMinor: 11_500 }),
  customer: { name: "Fatima", email: "fatima@example.com", language: "ar" },
  payment: { cardLast4: "4242", transactionId: "TX-1", paidAt: new Date("2025-01-05T07:29:00Z") },
  refund: null,
  ...over,
});

describe("chargeLines", () => {
  it("is the plan alone when nothing came off the price", () => {
    expect(chargeLines(charge())).toEqual([
      { kind: "plan", planName: "Gold", planChange: false, ...PERIOD, amountMinor: 10_000 },
    ]);
  });

  it("prints stored lines instead: the plan at its quantity and add-ons over the period, a one-off without", () => {
    const lines = chargeLines(
      charge({
        amountMinor: 15_000,
        discountMinor: 3_000,
        lines: [
          { kind: "plan", description: "Team", quantity: 3, amountMinor: 15_000 },
          { kind: "addon", description: "Storage", quantity: 2, amountMinor: 2_000 },
          { kind: "one_off", description: "Set-up", quantity: 1, amountMinor: 1_000 },
        ],
      }),
    );
    expect(lines).toEqual([
      { kind: "item", description: "Team", quantity: 3, ...PERIOD, amountMinor: 15_000 },
      { kind: "item", description: "Storage", quantity: 2, ...PERIOD, amountMinor: 2_000 },
      {
        kind: "item",
        description: "Set-up",
        quantity: 1,
        periodStart: null,
        periodEnd: null,
        amountMinor: 1_000,
      },
      { kind: "discount", couponPercent: null, amountMinor: -3_000 },
    ]);
  });

  it("shows the price before deductions, then each deduction, adding up to the charge", () => {
    const lines = chargeLines(
      charge({ amountMinor: 123_450, discountMinor: 14_500, discountPercent: 10, creditMinor: 7_050 }),
    );
    expect(lines).toEqual([
      { kind: "plan", planName: "Gold", planChange: false, ...PERIOD, amountMinor: 145_000 },
      { kind: "discount", couponPercent: 10, amountMinor: -14_500 },
      { kind: "credit", amountMinor: -7_050 },
    ]);
    expect(lines.reduce((sum, line) => sum + line.amountMinor, 0)).toBe(123_450);
  });

  it("names a plan change's charge as the change, and a fixed coupon without a percent", () => {
    const lines = chargeLines(charge({ kind: "plan_change", discountMinor: 500 }));
    expect(lines[0]).toMatchObject({ kind: "plan", planChange: true, amountMinor: 10_500 });
    expect(lines[1]).toEqual({ kind: "discount", couponPercent: null, amountMinor: -500 });
  });

  it("keeps a charge of zero (fully covered by credit) as price less credit", () => {
    expect(chargeLines(charge({ amountMinor: 0, creditMinor: 10_000 }))).toEqual([
      { kind: "plan", planName: "Gold", planChange: false, ...PERIOD, amountMinor: 10_000 },
      { kind: "credit", amountMinor: -10_000 },
    ]);
  });
});

describe("documentModel", () => {
  it("prints the receipt number, the tax included in the total, and the total less it", () => {
    const model = documentModel(facts(), MERCHANT);
    expect(model).toMatchObject({
      kind: "receipt",
      number: "RCT-000042",
      totalMinor: 11_500,
      subtotalMinor: 10_000,
      tax: { label: "VAT", rateBp: 1_500, includedMinor: 1_500 },
      merchant: MERCHANT,
      refund: null,
    });
  });

  it("prints no tax line at a rate of 0, and the subtotal is the total", () => {
    const model = documentModel(facts({ taxRateBp: 0 }), MERCHANT);
    expect(model.tax).toBeNull();
    expect(model.subtotalMinor).toBe(11_500);
  });

  it("takes the total and the tax from the document as issued, in the currency's minor units", () => {
    const model = documentModel(
      facts({ currency: "KWD", amountMinor: 1_234, taxRateBp: 500, charge: charge({ amountMinor: 1_234 }) }),
      MERCHANT,
    );
    expect(model).toMatchObject({ currency: "KWD", totalMinor: 1_234, subtotalMinor: 1_175 });
    expect(model.tax?.includedMinor).toBe(59);
  });

  it("numbers a credit note in its own series and carries its refund", () => {
    const refund = {
      refundedTransactionId: "TX-1",
      refundTransactionId: null,
      receiptNumber: "RCT-000042",
      status: "under_processing" as const,
    };
    const model = documentModel(facts({ series: "credit_note", number: 7, refund }), MERCHANT);
    expect(model.kind).toBe("credit_note");
    expect(model.number).toBe("CN-000007");
    expect(model.refund).toEqual(refund);
  });
});
