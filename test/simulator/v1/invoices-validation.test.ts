import { describe, expect, it } from "vitest";
import { createInvoice } from "../../../src/simulator/v1/invoices.js";
import { badRequestOf, invoiceContext, invoiceOf, payment, quick, testMerchant } from "./fixtures.js";

const item = { description: "Widget", amount: "10.00" };

describe("createInvoice: the v1 error body", () => {
  it("answers 400 with error_code and a description naming the field", () => {
    const reply = createInvoice(invoiceContext(), { ...quick, client: { email: "not-an-address" } });
    expect(reply).toEqual({
      status: 400,
      body: {
        status: "error",
        error: { error_code: "400", description: "client.email: invalid e-mail format" },
      },
    });
  });

  it("lists every offending field at once", () => {
    const description = badRequestOf(createInvoice(invoiceContext(), { ...quick, note: 1, title: false }));
    expect(description).toBe("note: must be a string; title: must be a string");
  });

  it.each([null, [], "invoice", 42])("refuses a body that is not an object: %j", (body) => {
    expect(badRequestOf(createInvoice(invoiceContext(), body))).toMatch(/^body: /);
  });
});

describe("createInvoice: required fields", () => {
  it.each([
    ["nothing", {}, "items: required when description and amount are both absent"],
    ["description only", { description: "x" }, "amount: required when items are absent"],
    ["amount only", { amount: "1" }, "description: required when items are absent"],
    ["empty items", { items: [] }, "items: must have at least one item"],
    ["blank description", { description: "  ", amount: "1" }, "description: must not be empty"],
    ["item without description", { items: [{ amount: "1" }] }, "items[0].description: is required"],
    ["item without amount", { items: [{ description: "x" }] }, "items[0].amount: is required"],
    ["client without e-mail", { ...quick, client: { name: "x" } }, "client.email: is required"],
    [
      "payment without date",
      { ...quick, status: "paid", payments: [{ amount: 1 }] },
      "payments[0].payment_date: is required",
    ],
    [
      "payment without amount",
      { ...quick, status: "paid", payments: [{ payment_date: "2026-01-01" }] },
      "payments[0].amount: is required",
    ],
  ])("%s", (_label, body, description) => {
    expect(badRequestOf(createInvoice(invoiceContext(), body))).toBe(description);
  });
});

describe("createInvoice: payments against status", () => {
  it.each([
    ["paid", undefined, "payments: required when status is paid"],
    ["paid", [], "payments: required when status is paid"],
    ["refund", undefined, "payments: required when status is refund"],
    ["sent", [payment], "payments: must not be sent when status is sent"],
    [undefined, [payment], "payments: must not be sent when status is sent"],
    ["void", [payment], "payments: must not be sent when status is void"],
  ])("status %s with payments %j is refused", (status, payments, description) => {
    const body = { items: [item], status, payments };
    expect(badRequestOf(createInvoice(invoiceContext(), body))).toBe(description);
  });

  it.each([
    ["paid", [payment]],
    ["refund", [payment]],
    ["sent", undefined],
    ["sent", []],
    ["void", undefined],
  ])("status %s with payments %j is accepted", (status, payments) => {
    const invoice = invoiceOf(createInvoice(invoiceContext(), { ...quick, status, payments }));
    expect(invoice.status).toBe(status);
  });

  it("refuses an unknown status", () => {
    expect(badRequestOf(createInvoice(invoiceContext(), { ...quick, status: "draft" }))).toBe(
      "status: must be one of sent, paid, void, refund",
    );
  });

  it.each([
    ["payment_type", "cheque", "must be one of credit, cash, wallet, bank_transfer"],
    ["status", "Paid", "must be one of paid, active, refund"],
    ["payment_date", "yesterday", "must be an ISO 8601 date or date-time, e.g. 2026-11-23T10:00:00+03:00"],
    ["transaction_id", 12, "must be a string"],
  ])("refuses payment %s %j", (field, value, reason) => {
    const body = { ...quick, status: "paid", payments: [payment, { ...payment, [field]: value }] };
    expect(badRequestOf(createInvoice(invoiceContext(), body))).toBe(`payments[1].${field}: ${reason}`);
  });
});

describe("createInvoice: type, currency and payment methods", () => {
  it.each(["quick", "Detailed", "simple", 1])("refuses type %j", (type) => {
    expect(badRequestOf(createInvoice(invoiceContext(), { items: [item], type }))).toBe(
      'type: the only accepted value is "detailed"',
    );
  });

  it.each([
    ["XYZ", 'currency: "XYZ" is not a valid ISO currency code'],
    ["QA", 'currency: "QA" is not a valid ISO currency code'],
    ["EUR", "currency: EUR is not supported by this account"],
    ["SAR", "currency: SAR is not supported by this account"],
  ])("refuses currency %s", (currency, description) => {
    expect(badRequestOf(createInvoice(invoiceContext(), { ...quick, currency }))).toBe(description);
  });

  it("accepts a supported currency written in lower case", () => {
    expect(invoiceOf(createInvoice(invoiceContext(), { ...quick, currency: "usd" })).currency).toBe("USD");
  });

  it.each([
    [
      "card",
      { card: false },
      "setting.accepted_payment_methods.card: this account does not support card payments",
    ],
    [
      "wallet",
      { wallet: false },
      "setting.accepted_payment_methods.wallet: this account does not support wallet payments",
    ],
  ])("refuses %s without account support, and allows it switched off", (method, support, description) => {
    const ctx = invoiceContext({ merchant: testMerchant(support) });
    const on = { ...quick, setting: { accepted_payment_methods: { [method]: true } } };
    expect(badRequestOf(createInvoice(ctx, on))).toBe(description);
    const off = { ...quick, setting: { accepted_payment_methods: { [method]: false } } };
    expect(invoiceOf(createInvoice(ctx, off)).setting.accepted_payment_methods).toMatchObject({
      [method]: false,
    });
  });

  it.each([
    ["language", "fr", "must be one of ar, en"],
    ["discount_type", "percent", "must be one of percentage, fixed"],
    ["tax", "yes", "must be true or false"],
  ])("refuses setting.%s %j", (field, value, reason) => {
    const body = { ...quick, setting: { [field]: value } };
    expect(badRequestOf(createInvoice(invoiceContext(), body))).toBe(`setting.${field}: ${reason}`);
  });
});

describe("createInvoice: 300-character limits", () => {
  const cases: [string, (text: string) => Record<string, unknown>][] = [
    ["description", (text) => ({ ...quick, description: text })],
    ["note", (text) => ({ ...quick, note: text })],
    ["terms_conditions", (text) => ({ ...quick, terms_conditions: text })],
    ["title", (text) => ({ ...quick, title: text })],
    ["client.name", (text) => ({ ...quick, client: { email: "a@example.qa", name: text } })],
    ["client.address", (text) => ({ ...quick, client: { email: "a@example.qa", address: text } })],
    ["payments[0].note", (text) => ({ ...quick, status: "paid", payments: [{ ...payment, note: text }] })],
  ];

  it.each(cases)("%s takes 300 characters and refuses 301", (field, body) => {
    expect(createInvoice(invoiceContext(), body("é".repeat(300))).status).toBe(201);
    expect(badRequestOf(createInvoice(invoiceContext(), body("x".repeat(301))))).toBe(
      `${field}: must be at most 300 characters`,
    );
  });
});

describe("createInvoice: client e-mail", () => {
  it.each(["a@example.qa", "first.last+tag@mail.example.com"])("accepts %s", (email) => {
    expect(createInvoice(invoiceContext(), { ...quick, client: { email } }).status).toBe(201);
  });

  it.each(["", "plain", "a@b", "a@@example.qa", "a b@example.qa", "@example.qa", 5])(
    "refuses %j",
    (email) => {
      expect(badRequestOf(createInvoice(invoiceContext(), { ...quick, client: { email } }))).toBe(
        "client.email: invalid e-mail format",
      );
    },
  );
});

describe("createInvoice: amounts on the wire", () => {
  it.each([
    ["amount", { ...quick, amount: "-1" }, "must be a non-negative decimal number"],
    ["amount", { ...quick, amount: "1e3" }, "must be a non-negative decimal number"],
    ["amount", { ...quick, amount: "1,5" }, "must be a non-negative decimal number"],
    ["amount", { ...quick, amount: true }, "must be a non-negative decimal number"],
    [
      "amount",
      { ...quick, amount: 0.1 + 0.2 },
      'amount "0.30000000000000004" has more than 2 decimal place(s) allowed for QAR',
    ],
    [
      "amount",
      { ...quick, amount: "1.001" },
      'amount "1.001" has more than 2 decimal place(s) allowed for QAR',
    ],
    [
      "amount",
      { ...quick, currency: "JPY", amount: "1.5" },
      'amount "1.5" has more than 0 decimal place(s) allowed for JPY',
    ],
    [
      "items[1].amount",
      { items: [item, { ...item, amount: "0.001" }] },
      'amount "0.001" has more than 2 decimal place(s) allowed for QAR',
    ],
    ["items[0].amount", { items: [{ ...item, amount: -5 }] }, "must be a non-negative decimal number"],
    [
      "items[0].qty",
      { items: [{ ...item, qty: 0 }] },
      "must be a positive decimal number with at most 6 decimal places",
    ],
    [
      "items[0].qty",
      { items: [{ ...item, qty: "-1" }] },
      "must be a positive decimal number with at most 6 decimal places",
    ],
    [
      "items[0].qty",
      { items: [{ ...item, qty: "0.0000001" }] },
      "must be a positive decimal number with at most 6 decimal places",
    ],
    [
      "payments[0].amount",
      { ...quick, status: "paid", payments: [{ ...payment, amount: "1.234" }] },
      'amount "1.234" has more than 2 decimal place(s) allowed for QAR',
    ],
  ])("%s: %j is refused", (field, body, reason) => {
    expect(badRequestOf(createInvoice(invoiceContext(), body))).toBe(`${field}: ${reason}`);
  });

  it.each([" 12.5 ", 12.5, "12.500", "0012.50"])("reads amount %j as 12.50", (amount) => {
    expect(invoiceOf(createInvoice(invoiceContext(), { ...quick, amount })).amount).toBe("12.50");
  });
});

describe("createInvoice: discount rules", () => {
  const detailed = (setting: Record<string, unknown>) => ({
    items: [{ ...item, amount: "200.00" }],
    setting,
  });

  it.each([
    [{ discount: 0, discount_type: "percentage" }, "200.00", "0"],
    [{ discount: 1, discount_type: "percentage" }, "198.00", "1"],
    [{ discount: "12.5", discount_type: "percentage" }, "175.00", "12.5"],
    [{ discount: 99, discount_type: "percentage" }, "2.00", "99"],
    [{ discount: "0.00" }, "200.00", "0.00"],
    [{ discount: "15.5", discount_type: "fixed" }, "184.50", "15.50"],
    [{ discount: 200 }, "0.00", "200.00"],
  ])("%j gives %s", (setting, amount, discount) => {
    const invoice = invoiceOf(createInvoice(invoiceContext(), detailed(setting)));
    expect(invoice.amount).toBe(amount);
    expect(invoice.setting.discount).toBe(discount);
  });

  it.each([
    [
      { discount: "0.5", discount_type: "percentage" },
      "a percentage discount must be from 1 to 99 (or 0 for none)",
    ],
    [
      { discount: 100, discount_type: "percentage" },
      "a percentage discount must be from 1 to 99 (or 0 for none)",
    ],
    [
      { discount: "99.01", discount_type: "percentage" },
      "a percentage discount must be from 1 to 99 (or 0 for none)",
    ],
    [{ discount: "200.01" }, "a fixed discount must not exceed the invoice amount 200.00"],
    [{ discount: "-1" }, "must be a non-negative decimal number"],
    [{ discount: "1.005" }, 'amount "1.005" has more than 2 decimal place(s) allowed for QAR'],
  ])("%j is refused", (setting, reason) => {
    expect(badRequestOf(createInvoice(invoiceContext(), detailed(setting)))).toBe(
      `setting.discount: ${reason}`,
    );
  });

  it("records but does not subtract the discount of a quick invoice, which still may not exceed it", () => {
    const invoice = invoiceOf(createInvoice(invoiceContext(), { ...quick, setting: { discount: 10 } }));
    expect(invoice).toMatchObject({
      amount: "100.00",
      setting: { discount: "10.00", discount_type: "fixed" },
    });
    expect(badRequestOf(createInvoice(invoiceContext(), { ...quick, setting: { discount: "100.01" } }))).toBe(
      "setting.discount: a fixed discount must not exceed the invoice amount 100.00",
    );
  });
});

describe("createInvoice: other fields", () => {
  it.each([
    [{ ...quick, number: "" }, "number: must not be empty"],
    [{ ...quick, number: 12 }, "number: must be a string"],
    [
      { ...quick, date: "23/11/2026" },
      "date: must be an ISO 8601 date or date-time, e.g. 2026-11-23T10:00:00+03:00",
    ],
    [{ ...quick, client: { id: "1", email: "a@example.qa" } }, "client.id: must be a positive integer"],
    [{ ...quick, client: { id: 0, email: "a@example.qa" } }, "client.id: must be a positive integer"],
    [{ ...quick, client: { id: 1.5, email: "a@example.qa" } }, "client.id: must be a positive integer"],
    [{ ...quick, client: { email: "a@example.qa", phone: 974 } }, "client.phone: must be a string"],
    [{ ...quick, items: "not read" }, null],
    [{ items: "x" }, "items: must be an array"],
    [
      { items: [item], setting: { accepted_payment_methods: { cash: "yes" } } },
      "setting.accepted_payment_methods.cash: must be true or false",
    ],
  ])("%j → %s", (body, description) => {
    const reply = createInvoice(invoiceContext(), body);
    if (description === null) expect(reply.status).toBe(201);
    else expect(badRequestOf(reply)).toBe(description);
  });
});
