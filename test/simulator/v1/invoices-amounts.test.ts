import { describe, expect, it } from "vitest";
import { createInvoice } from "../../../src/simulator/v1/invoices.js";
import { invoiceContext, invoiceOf } from "./fixtures.js";

type Line = { qty?: string | number; amount: string | number };

const detailed = (currency: string, lines: Line[], setting?: Record<string, unknown>) => ({
  currency,
  items: lines.map((line, index) => ({ description: `line ${index + 1}`, ...line })),
  setting,
});

describe("createInvoice: exact amounts in minor units", () => {
  it.each([
    ["QAR 0.10 + 0.20", detailed("QAR", [{ amount: "0.10" }, { amount: "0.20" }]), "0.30"],
    ["QAR as JSON numbers 0.1 + 0.2", detailed("QAR", [{ amount: 0.1 }, { amount: 0.2 }]), "0.30"],
    ["QAR 3 × 33.33", detailed("QAR", [{ qty: 3, amount: "33.33" }]), "99.99"],
    ["KWD 0.125 + 0.250", detailed("KWD", [{ amount: "0.125" }, { amount: "0.25" }]), "0.375"],
    ["KWD 2 × 1.001", detailed("KWD", [{ qty: "2", amount: "1.001" }]), "2.002"],
    ["JPY 1000 + 500", detailed("JPY", [{ amount: 1000 }, { amount: "500" }]), "1500"],
    ["JPY 3 × 333", detailed("JPY", [{ qty: 3, amount: 333 }]), "999"],
    ["QAR 1.5 × 10.00", detailed("QAR", [{ qty: "1.5", amount: "10.00" }]), "15.00"],
    ["QAR 0.001 × 1000.00", detailed("QAR", [{ qty: "0.001", amount: "1000.00" }]), "1.00"],
    ["QAR 1.5 × 0.15 = 0.225 rounds half up", detailed("QAR", [{ qty: "1.5", amount: "0.15" }]), "0.23"],
    ["QAR 1.5 × 0.13 = 0.195 rounds half up", detailed("QAR", [{ qty: "1.5", amount: "0.13" }]), "0.20"],
    ["QAR 0.333 × 0.10 = 0.0333 rounds down", detailed("QAR", [{ qty: "0.333", amount: "0.10" }]), "0.03"],
    [
      "QAR sub-fils lines add up before rounding (0.005 + 0.005)",
      detailed("QAR", [
        { qty: "0.5", amount: "0.01" },
        { qty: "0.5", amount: "0.01" },
      ]),
      "0.01",
    ],
    [
      "QAR fixed discount taken from the rounded subtotal (0.225 → 0.23)",
      detailed("QAR", [{ qty: "1.5", amount: "0.15" }], { discount: "0.23" }),
      "0.00",
    ],
    ["QAR zero-priced item", detailed("QAR", [{ amount: 0 }]), "0.00"],
    [
      "QAR 10% off 0.05 = 0.045 rounds half up",
      detailed("QAR", [{ amount: "0.05" }], { discount: 10, discount_type: "percentage" }),
      "0.05",
    ],
    [
      "QAR 33% off 10.00",
      detailed("QAR", [{ amount: "10.00" }], { discount: 33, discount_type: "percentage" }),
      "6.70",
    ],
    [
      "KWD fixed 0.125 off 1.000",
      detailed("KWD", [{ amount: "1" }], { discount: "0.125", discount_type: "fixed" }),
      "0.875",
    ],
    [
      "JPY 15% off 999 = 849.15",
      detailed("JPY", [{ amount: 999 }], { discount: 15, discount_type: "percentage" }),
      "849",
    ],
  ])("%s → %s", (_label, body, amount) => {
    expect(invoiceOf(createInvoice(invoiceContext(), body)).amount).toBe(amount);
  });

  it("shows item and payment amounts with the currency's decimals", () => {
    const invoice = invoiceOf(
      createInvoice(invoiceContext(), {
        ...detailed("KWD", [{ qty: "2.50", amount: "4" }], { discount: "1", discount_type: "fixed" }),
        status: "paid",
        payments: [{ payment_date: "2026-11-23", amount: 9 }],
      }),
    );
    expect(invoice.amount).toBe("9.000");
    expect(invoice.items[0]).toMatchObject({ qty: "2.5", amount: "4.000" });
    expect(invoice.payments[0]).toMatchObject({ amount: "9.000" });
    expect(invoice.setting.discount).toBe("1.000");
  });

  it("answers a quick JPY invoice without decimals", () => {
    const reply = createInvoice(invoiceContext(), { description: "Tea", amount: "1500", currency: "JPY" });
    expect(invoiceOf(reply)).toMatchObject({ amount: "1500", currency: "JPY" });
  });

  it("refuses a total beyond what minor units can hold exactly", () => {
    const reply = createInvoice(
      invoiceContext(),
      detailed("QAR", [{ qty: "1000000", amount: "90071992547409.91" }]),
    );
    expect(reply.body).toMatchObject({ error: { description: "items: the invoice total is too large" } });
  });
});
