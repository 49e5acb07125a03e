import { describe, expect, it } from "vitest";
import { ControllableClock } from "../../../src/clock/index.js";
import { createInvoice, InvoiceStore } from "../../../src/simulator/v1/invoices.js";
import { ProductCatalogue } from "../../../src/simulator/v1/products.js";
import { badRequestOf, invoiceContext, invoiceOf, payment, quick, testMerchant } from "./fixtures.js";

describe("createInvoice: a successful creation", () => {
  it("answers 201 with the full invoice, capitalising payment_type and status", () => {
    const ctx = invoiceContext();
    const reply = createInvoice(ctx, {
      type: "detailed",
      number: "ORD-42",
      status: "paid",
      currency: "QAR",
      date: "2026-11-20T12:00:00+03:00",
      title: "November order",
      note: "Thank you",
      terms_conditions: "Due on receipt",
      client: { name: "Aisha", email: "aisha@example.qa", phone: "+97455500000", address: "West Bay" },
      items: [
        { product_id: "3", description: "Karak tea box", qty: 2, amount: "25.50" },
        { description: "Delivery", amount: 10 },
      ],
      payments: [
        {
          payment_date: "2026-11-21T08:15:00+03:00",
          transaction_id: "TX-1",
          amount: "61.00",
          note: "paid at the door",
          payment_type: "credit",
        },
      ],
      setting: {
        tax: true,
        discount: "0",
        discount_type: "fixed",
        language: "en",
        accepted_payment_methods: { card: true, cash: true, wallet: true, e_signature: true },
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      status: "SUCCESS",
      invoice: {
        id: 1,
        number: "ORD-42",
        amount: "61.00",
        currency: "QAR",
        terms_conditions: "Due on receipt",
        note: "Thank you",
        date: "2026-11-20T12:00:00+03:00",
        status: "paid",
        type: "detailed",
        client: {
          id: 1,
          name: "Aisha",
          address: "West Bay",
          phone: "+97455500000",
          email: "aisha@example.qa",
          notes: null,
        },
        title: "November order",
        link: "http://127.0.0.1/invoices/1",
        description: null,
        items: [
          { id: 1, product_id: 3, description: "Karak tea box", type: "service", qty: "2", amount: "25.50" },
          { id: 2, product_id: null, description: "Delivery", type: "service", qty: "1", amount: "10.00" },
        ],
        payments: [
          {
            id: 1,
            payment_date: "2026-11-21T08:15:00+03:00",
            transaction_id: "TX-1",
            amount: "61.00",
            note: "paid at the door",
            payment_type: "Credit",
            status: "Paid",
          },
        ],
        setting: {
          tax: true,
          discount: "0.00",
          discount_type: "fixed",
          language: "en",
          accepted_payment_methods: {
            card: true,
            bank_transfer: false,
            cash: true,
            wallet: true,
            e_signature: true,
          },
        },
      },
    });
  });

  it("fills every default of a minimal quick invoice", () => {
    const invoice = invoiceOf(createInvoice(invoiceContext(), quick));
    expect(invoice).toEqual({
      id: 1,
      number: "INV-000001",
      amount: "100.00",
      currency: "QAR",
      terms_conditions: "",
      note: null,
      date: "2026-11-23T10:00:00+03:00",
      status: "sent",
      type: "quick",
      client: null,
      title: "",
      link: "http://127.0.0.1/invoices/1",
      description: "Consulting",
      items: [],
      payments: [],
      setting: {
        tax: false,
        discount: "0.00",
        discount_type: "fixed",
        language: "ar",
        accepted_payment_methods: {
          card: true,
          bank_transfer: false,
          cash: false,
          wallet: false,
          e_signature: false,
        },
      },
    });
  });

  it.each([
    ["cash", "paid", "Cash", "Paid"],
    ["credit", "active", "Credit", "Active"],
    ["wallet", "refund", "Wallet", "Refund"],
    ["bank_transfer", "paid", "Bank_transfer", "Paid"],
    [undefined, undefined, "Cash", "Paid"],
  ])("payment_type %s and status %s answer as %s / %s", (type, status, wireType, wireStatus) => {
    const reply = createInvoice(invoiceContext(), {
      ...quick,
      status: "paid",
      payments: [{ ...payment, payment_type: type, status }],
    });
    expect(invoiceOf(reply).payments[0]).toMatchObject({ payment_type: wireType, status: wireStatus });
  });

  it("takes the date from the clock in Qatar time, whole seconds", () => {
    const clock = new ControllableClock("2026-01-31T21:30:15.789Z");
    expect(invoiceOf(createInvoice(invoiceContext({ clock }), quick)).date).toBe("2026-02-01T00:30:15+03:00");
  });

  it.each([
    ["2026-11-20", "2026-11-20T00:00:00+03:00"],
    ["2026-11-20T12:00:00Z", "2026-11-20T15:00:00+03:00"],
    ["2026-11-20T12:00:00", "2026-11-20T12:00:00+03:00"],
  ])("reads date %s as %s", (date, wire) => {
    expect(invoiceOf(createInvoice(invoiceContext(), { ...quick, date })).date).toBe(wire);
  });

  it("builds links from the base URL the server passes", () => {
    const invoice = invoiceOf(createInvoice(invoiceContext({ baseUrl: "https://sim.example/i/" }), quick));
    expect(invoice.link).toBe("https://sim.example/i/1");
  });

  it("defaults the currency to the merchant's first currency", () => {
    const merchant = testMerchant({ currencies: ["KWD", "QAR"] });
    const invoice = invoiceOf(createInvoice(invoiceContext({ merchant }), { ...quick, amount: "1.5" }));
    expect(invoice).toMatchObject({ currency: "KWD", amount: "1.500" });
  });

  it("lets card follow the account when left out", () => {
    const merchant = testMerchant({ card: false });
    const invoice = invoiceOf(createInvoice(invoiceContext({ merchant }), quick));
    expect(invoice.setting.accepted_payment_methods).toMatchObject({ card: false });
  });
});

describe("createInvoice: quick or detailed", () => {
  const items = [{ description: "Widget", qty: "3", amount: "2.00" }];

  it.each([
    ["description + amount", quick, "quick", "100.00", 0],
    ["items", { items }, "detailed", "6.00", 1],
    ["items + description", { items, description: "Widgets" }, "detailed", "6.00", 1],
    ["items + amount (the items decide)", { items, amount: "1.00" }, "detailed", "6.00", 1],
    ["items + amount + description (items ignored)", { ...quick, items }, "quick", "100.00", 0],
    ["type detailed + description + amount", { ...quick, type: "detailed" }, "quick", "100.00", 0],
  ])("%s gives a %s invoice of %s", (_label, body, type, amount, itemCount) => {
    const invoice = invoiceOf(createInvoice(invoiceContext(), body));
    expect(invoice).toMatchObject({ type, amount });
    expect(invoice.items).toHaveLength(itemCount);
  });

  it("does not even validate items it ignores", () => {
    const reply = createInvoice(invoiceContext(), { ...quick, items: [{ amount: "-1" }] });
    expect(invoiceOf(reply)).toMatchObject({ type: "quick", items: [] });
  });
});

describe("createInvoice: numbers", () => {
  it("numbers invoices per merchant and refuses a number the merchant already used", () => {
    const ctx = invoiceContext();
    expect(invoiceOf(createInvoice(ctx, quick)).number).toBe("INV-000001");
    expect(invoiceOf(createInvoice(ctx, { ...quick, number: "INV-000002" })).number).toBe("INV-000002");
    // The generator steps over numbers a merchant chose itself.
    expect(invoiceOf(createInvoice(ctx, quick)).number).toBe("INV-000003");
    expect(badRequestOf(createInvoice(ctx, { ...quick, number: "INV-000002" }))).toBe(
      "number: already exists",
    );
    const other = { ...ctx, merchant: testMerchant({ id: 8 }) };
    expect(invoiceOf(createInvoice(other, { ...quick, number: "INV-000002" })).number).toBe("INV-000002");
  });

  it("gives ids across merchants and does not burn one on a refusal", () => {
    const ctx = invoiceContext();
    createInvoice(ctx, { ...quick, number: "A" });
    badRequestOf(createInvoice(ctx, { ...quick, number: "A" }));
    const second = invoiceOf(createInvoice({ ...ctx, merchant: testMerchant({ id: 9 }) }, quick));
    expect(second.id).toBe(2);
  });
});

describe("createInvoice: the client book", () => {
  it("creates a client, then updates it by e-mail with the fields sent", () => {
    const ctx = invoiceContext();
    const first = invoiceOf(
      createInvoice(ctx, { ...quick, client: { name: "Omar", email: "omar@example.qa", phone: "+974 1" } }),
    );
    const second = invoiceOf(
      createInvoice(ctx, { ...quick, client: { email: "OMAR@example.qa", address: "Lusail" } }),
    );
    expect(second.client).toEqual({
      id: first.client?.id,
      name: "Omar",
      address: "Lusail",
      phone: "+974 1",
      email: "OMAR@example.qa",
      notes: null,
    });
  });

  it("updates a client found by id, e-mail included", () => {
    const ctx = invoiceContext();
    const { client } = invoiceOf(createInvoice(ctx, { ...quick, client: { email: "old@example.qa" } }));
    const moved = invoiceOf(
      createInvoice(ctx, { ...quick, client: { id: client?.id, email: "new@example.qa", name: "Mona" } }),
    );
    expect(moved.client).toMatchObject({ id: client?.id, email: "new@example.qa", name: "Mona" });
    // The old address is free again: it makes a new client.
    const fresh = invoiceOf(createInvoice(ctx, { ...quick, client: { email: "old@example.qa" } }));
    expect(fresh.client?.id).not.toBe(client?.id);
  });

  it("keeps clients apart per merchant", () => {
    const ctx = invoiceContext();
    const mine = invoiceOf(createInvoice(ctx, { ...quick, client: { email: "x@example.qa" } }));
    const other = { ...ctx, merchant: testMerchant({ id: 8 }) };
    const theirs = invoiceOf(createInvoice(other, { ...quick, client: { email: "x@example.qa" } }));
    expect(theirs.client?.id).not.toBe(mine.client?.id);
    expect(
      badRequestOf(
        createInvoice(other, { ...quick, client: { id: mine.client?.id, email: "x@example.qa" } }),
      ),
    ).toBe("client.id: no such client");
  });

  it("refuses an id whose e-mail belongs to another client, leaving the book alone", () => {
    const ctx = invoiceContext();
    const a = invoiceOf(
      createInvoice(ctx, { ...quick, client: { email: "a@example.qa", name: "A" } }),
    ).client;
    invoiceOf(createInvoice(ctx, { ...quick, client: { email: "b@example.qa" } }));
    const reply = createInvoice(ctx, { ...quick, client: { id: a?.id, email: "b@example.qa", name: "B" } });
    expect(badRequestOf(reply)).toBe("client.email: already belongs to client 2");
    expect(ctx.store.all()).toHaveLength(2);
    expect(ctx.store.all()[0]?.client).toMatchObject({ name: "A", email: "a@example.qa" });
  });
});

describe("createInvoice: products", () => {
  it("checks product ids against the catalogue when one is given", () => {
    const ctx = invoiceContext({ catalogue: new ProductCatalogue() });
    const ok = createInvoice(ctx, { items: [{ product_id: 25, description: "Chocolate", amount: "1" }] });
    expect(invoiceOf(ok).items[0]?.product_id).toBe(25);
    const unknown = createInvoice(ctx, {
      items: [{ product_id: "26", description: "Nothing", amount: "1" }],
    });
    expect(badRequestOf(unknown)).toBe("items[0].product_id: no such product");
  });

  it.each(["abc", "0", -1, 1.5, ""])("refuses product_id %j", (productId) => {
    const reply = createInvoice(invoiceContext(), {
      items: [{ product_id: productId, description: "x", amount: 1 }],
    });
    expect(badRequestOf(reply)).toMatch(/^items\[0\]\.product_id: must be a product id/);
  });
});

describe("InvoiceStore", () => {
  it("lists every invoice as a JSON-ready ledger and forgets them on clear", () => {
    const store = new InvoiceStore();
    const ctx = invoiceContext({ store });
    createInvoice(ctx, quick);
    createInvoice({ ...ctx, merchant: testMerchant({ id: 8 }) }, { ...quick, amount: 5 });
    const ledger = store.all();
    expect(JSON.parse(JSON.stringify(ledger))).toEqual(ledger);
    expect(ledger.map((entry) => [entry.merchant_id, entry.number, entry.amount, entry.created_at])).toEqual([
      [7, "INV-000001", "100.00", "2026-11-23T10:00:00+03:00"],
      [8, "INV-000001", "5.00", "2026-11-23T10:00:00+03:00"],
    ]);
    store.clear();
    expect(store.all()).toEqual([]);
    expect(invoiceOf(createInvoice(ctx, quick))).toMatchObject({ id: 1, number: "INV-000001" });
  });
});
