import { DateTime } from "luxon";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GatewayRejectedError, type InvoiceRequest } from "../../src/gateway/index.js";
import { failure } from "./support/failure.js";
import { FakeGateway } from "./support/fake-gateway.js";
import { INVOICE_REPLY } from "./support/replies.js";

let gateway: FakeGateway;

beforeAll(async () => {
  gateway = await FakeGateway.start();
});
afterAll(() => gateway.close());
beforeEach(() => gateway.reset());

describe("v1 invoices", () => {
  const client = () => gateway.client({ accessToken: "static-token" });

  it("creates a quick invoice and reads the 201 reply into Money", async () => {
    gateway.on("/v1/invoices", { status: 201, json: INVOICE_REPLY });
    const invoice = await client().v1.createInvoice({
      description: "Consulting",
      amount: { minor: 1050, currency: "QAR" },
      client: { name: "Client One", email: "c@example.com", phone: "+97455500000" },
      termsConditions: "net 30",
      title: "May",
    });
    const sent = gateway.last("/v1/invoices");
    expect(sent.headers.authorization).toBe("Bearer static-token");
    expect(sent.body).toEqual({
      description: "Consulting",
      amount: "10.50",
      currency: "QAR",
      client: { name: "Client One", email: "c@example.com", phone: "+97455500000" },
      terms_conditions: "net 30",
      title: "May",
    });
    expect(invoice).toStrictEqual({
      id: 77,
      number: "INV-77",
      amount: { minor: 1050, currency: "QAR" },
      currency: "QAR",
      termsConditions: "net 30",
      date: "2024-05-01T10:00:00+03:00",
      status: "sent",
      type: "Quick",
      client: { id: 5, name: "Client One", address: "Doha", phone: "+97455500000", email: "c@example.com" },
      title: "May",
      link: "https://pay.example/invoices/77",
      description: "Consulting",
      items: [],
      payments: [],
      setting: {
        tax: false,
        discount: { type: "fixed", amount: { minor: 0, currency: "QAR" } },
        language: "ar",
        acceptedPaymentMethods: {
          card: true,
          bankTransfer: false,
          cash: true,
          wallet: false,
          eSignature: false,
        },
      },
    });
  });

  it("creates a detailed paid invoice with items, payments and settings", async () => {
    gateway.on("/v1/invoices", {
      status: 201,
      json: {
        status: "SUCCESS",
        invoice: {
          id: 78,
          currency: "KWD",
          amount: 2.468,
          status: "Paid",
          type: "Detailed",
          description: null,
          items: [{ id: 1, product_id: 12, description: "Seat", type: "service", qty: "2", amount: "1.234" }],
          payments: [
            {
              id: 9,
              payment_date: "2024-05-01 10:00:00",
              transaction_id: "TXN-9",
              amount: "2.468",
              note: null,
              payment_type: "Cash",
              status: "Paid",
            },
          ],
          setting: { tax: true, discount: 10, discount_type: "percentage", language: "en" },
        },
      },
    });
    const request: InvoiceRequest = {
      type: "detailed",
      status: "paid",
      items: [{ productId: "12", description: "Seat", qty: 2, amount: { minor: 1234, currency: "KWD" } }],
      payments: [
        {
          paymentDate: DateTime.fromISO("2024-05-01T10:00:00Z", { zone: "utc" }),
          transactionId: "TXN-9",
          amount: { minor: 2468, currency: "KWD" },
          paymentType: "cash",
          status: "paid",
        },
      ],
      setting: {
        tax: true,
        discount: { type: "percentage", percent: 10 },
        language: "en",
        acceptedPaymentMethods: { cash: true, bankTransfer: true },
      },
    };
    const invoice = await client().v1.createInvoice(request);
    expect(gateway.last("/v1/invoices").body).toEqual({
      type: "detailed",
      status: "paid",
      currency: "KWD",
      items: [{ product_id: "12", description: "Seat", qty: "2", amount: "1.234" }],
      payments: [
        {
          payment_date: "2024-05-01T10:00:00.000Z",
          transaction_id: "TXN-9",
          amount: "2.468",
          payment_type: "cash",
          status: "paid",
        },
      ],
      setting: {
        tax: true,
        discount: "10",
        discount_type: "percentage",
        language: "en",
        accepted_payment_methods: { cash: true, bank_transfer: true },
      },
    });
    expect(invoice).toMatchObject({
      id: 78,
      amount: { minor: 2468, currency: "KWD" },
      status: "paid",
      items: [
        {
          id: 1,
          productId: 12,
          description: "Seat",
          type: "service",
          qty: "2",
          amount: { minor: 1234, currency: "KWD" },
        },
      ],
      payments: [
        {
          id: 9,
          transactionId: "TXN-9",
          amount: { minor: 2468, currency: "KWD" },
          paymentType: "cash",
          status: "paid",
        },
      ],
      setting: { tax: true, discount: { type: "percentage", percent: 10 }, language: "en" },
    });
    expect(invoice.description).toBeUndefined();
  });

  it.each<[string, InvoiceRequest]>([
    [
      "payments on a sent invoice",
      {
        description: "x",
        amount: { minor: 100, currency: "QAR" },
        payments: [{ paymentDate: "2024-05-01", amount: { minor: 100, currency: "QAR" } }],
      },
    ],
    [
      "a paid invoice without payments",
      { description: "x", amount: { minor: 100, currency: "QAR" }, status: "paid" },
    ],
    ["neither description and amount nor items", { description: "x" }],
    [
      "mixed currencies",
      {
        items: [
          { description: "a", amount: { minor: 100, currency: "QAR" } },
          { description: "b", amount: { minor: 100, currency: "USD" } },
        ],
      },
    ],
    [
      "a description over 300 characters",
      { description: "x".repeat(301), amount: { minor: 100, currency: "QAR" } },
    ],
    [
      "a percentage discount of 100",
      {
        description: "x",
        amount: { minor: 100, currency: "QAR" },
        setting: { discount: { type: "percentage", percent: 100 } },
      },
    ],
  ])("refuses %s before calling", async (_case, request) => {
    const error = await failure(client().v1.createInvoice(request));
    expect(error).toBeInstanceOf(GatewayRejectedError);
    expect(error.code).toBe("invalid_request");
    expect(gateway.requests).toHaveLength(0);
  });

  it("maps a 400 error body and does not repeat the call", async () => {
    gateway.on("/v1/invoices", {
      status: 400,
      json: { status: "error", error: { error_code: "400", description: "type must be detailed" } },
    });
    const error = await failure(
      client().v1.createInvoice({ description: "x", amount: { minor: 100, currency: "QAR" } }),
    );
    expect(error).toBeInstanceOf(GatewayRejectedError);
    expect(error).toMatchObject({ code: 400, description: "type must be detailed", httpStatus: 400 });
    expect(gateway.hits("/v1/invoices")).toHaveLength(1);
  });
});
