import { ControllableClock } from "../../../src/clock/index.js";
import type { SimMerchant, SimReply } from "../../../src/simulator/types.js";
import { type InvoiceContext, InvoiceStore } from "../../../src/simulator/v1/invoices.js";

/** Shared set-up for the invoice and product handler tests: a merchant, a stopped clock, a store. */

export function testMerchant(overrides: Partial<SimMerchant> = {}): SimMerchant {
  return {
    id: 7,
    name: "Doha Coffee",
    apiKey: "6f1c5e8a-3b2d-4c1e-9a7f-0d1e2f3a4b5c",
    mode: "test",
    currencies: ["QAR", "KWD", "JPY", "USD"],
    card: true,
    wallet: true,
    void: false,
    successUrl: null,
    failureUrl: null,
    webhookUrl: null,
    ...overrides,
  };
}

/** 10:00 in Doha. */
export const NOW = "2026-11-23T07:00:00Z";

export function invoiceContext(overrides: Partial<InvoiceContext> = {}): InvoiceContext {
  return {
    merchant: testMerchant(),
    clock: new ControllableClock(NOW),
    store: new InvoiceStore(),
    ...overrides,
  };
}

/** The v1 error description of a reply, failing loudly when the reply is not a 400. */
export function badRequestOf(reply: SimReply): string {
  const body = reply.body as { error?: { description?: string } };
  if (reply.status !== 400 || typeof body.error?.description !== "string") {
    throw new Error(`expected a 400, got ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return body.error.description;
}

/** The `invoice` of a 201 reply. */
export function invoiceOf(reply: SimReply): Record<string, unknown> & {
  amount: string;
  items: Record<string, unknown>[];
  payments: Record<string, unknown>[];
  setting: Record<string, unknown>;
  client: Record<string, unknown> | null;
} {
  if (reply.status !== 201)
    throw new Error(`expected a 201, got ${reply.status} ${JSON.stringify(reply.body)}`);
  return (reply.body as { invoice: ReturnType<typeof invoiceOf> }).invoice;
}

export const quick = { description: "Consulting", amount: "100.00" };
export const payment = { payment_date: "2026-11-23T09:30:00+03:00", amount: "100.00" };
