import type { ledger } from "../../src/simulator/admin/ledger.js";
import {
  type RunningSimulator,
  type StartSimulatorOptions,
  startSimulator,
} from "../../src/simulator/index.js";
import type { legacyPaymentRecord } from "../../src/simulator/legacy/payment-record.js";

/** Every test starts on Monday 2025-03-10 08:00 GMT, well before the 20:00 GMT settlement cutoff. */
export const START = "2025-03-10T08:00:00.000Z";

export const CARD = { card_number: "4111111111111111", expiry: "12/30", cvv: "123", name: "Test Client" };

export type Ledger = ReturnType<typeof ledger>;
export type PaymentRecord = ReturnType<typeof legacyPaymentRecord>;

export interface LegacyReply {
  result: number | string;
  payment?: PaymentRecord;
  transactionId?: string;
  transactionid?: string;
  authcode?: string;
  mode?: string;
  description?: string;
  refundState?: string;
  refundTrnsactionId?: string;
}

export interface V1Reply {
  status: string;
  result?: { checkout_url?: string; refund_status?: string; mode?: string; refund_transaction_id?: string };
  error?: { error_code: string; description: string };
  success?: boolean;
  bearer_token?: string;
  expires_in?: number;
}

export interface PayReply {
  status?: "SUCCESS" | "FAILURE";
  redirect_url?: string | null;
  error?: string;
  field?: string;
}

export interface Reply<T> {
  status: number;
  body: T;
  text: string;
  contentType: string;
}

type Fields = Record<string, string | number | boolean | undefined>;

async function reply<T>(response: Response): Promise<Reply<T>> {
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  const body = (contentType.includes("json") && text !== "" ? JSON.parse(text) : undefined) as T;
  return { status: response.status, body, text, contentType };
}

/** A simulator on a free port, driven over real HTTP. */
export class Sim {
  private enrollments = 0;

  private constructor(private readonly running: RunningSimulator) {}

  static async start(options: StartSimulatorOptions = {}): Promise<Sim> {
    return new Sim(await startSimulator({ port: 0, seed: 42, ...options }));
  }

  get url(): string {
    return this.running.url;
  }

  get apiKey(): string {
    return this.running.defaultApiKey;
  }

  get clock() {
    return this.running.clock;
  }

  close(): Promise<void> {
    return this.running.close();
  }

  async reset(): Promise<void> {
    this.clock.set(START);
    await this.post("/_sim/reset", {});
  }

  fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetch(new URL(path, this.url), init);
  }

  async get<T = Record<string, unknown>>(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    return reply<T>(await this.fetch(path, { headers }));
  }

  async post<T = Record<string, unknown>>(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    method = "POST",
  ): Promise<Reply<T>> {
    return reply<T>(
      await this.fetch(path, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    );
  }

  /** A legacy operation; `token` defaults to the default merchant's key (pass undefined to leave it out). */
  async legacy(
    operation: string,
    fields: Fields,
    encoding: "form" | "json" = "form",
  ): Promise<Reply<LegacyReply>> {
    const all: Fields = { token: this.apiKey, ...fields };
    const present = Object.entries(all).filter(
      (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
    );
    const body =
      encoding === "json"
        ? JSON.stringify(Object.fromEntries(present))
        : new URLSearchParams(present.map(([key, value]) => [key, String(value)])).toString();
    const type = encoding === "json" ? "application/json" : "application/x-www-form-urlencoded";
    return reply<LegacyReply>(
      await this.fetch(`/v3/${operation}`, { method: "POST", headers: { "content-type": type }, body }),
    );
  }

  /** A v1 call with the default merchant's api_key header unless told otherwise. */
  async v1(path: string, body: unknown, headers: Record<string, string> = { api_key: this.apiKey }) {
    return this.post<V1Reply>(path, body, headers);
  }

  async configure(settings: Record<string, unknown>, apiKey = this.apiKey): Promise<void> {
    const response = await this.post(`/_sim/merchants/${apiKey}`, settings, {}, "PATCH");
    if (response.status !== 200) throw new Error(`configure failed: ${response.text}`);
  }

  async createMerchant(settings: Record<string, unknown>): Promise<string> {
    const response = await this.post<{ api_key: string }>("/_sim/merchants", settings);
    if (response.status !== 201) throw new Error(`merchant creation failed: ${response.text}`);
    return response.body.api_key;
  }

  /** AddTransaction with sensible defaults; answers the checkout URL. */
  async addTransaction(fields: Fields = {}): Promise<string> {
    const response = await this.legacy("AddTransaction", {
      orderId: "order-1",
      amount: "100.00",
      customerEmail: "client@example.com",
      ...fields,
    });
    if (typeof response.body.result !== "string") throw new Error(`AddTransaction failed: ${response.text}`);
    return response.body.result;
  }

  /** A v1 checkout with sensible defaults; answers the checkout URL. */
  async checkout(fields: Record<string, unknown> = {}, apiKey = this.apiKey): Promise<string> {
    const response = await this.v1(
      "/v1/payments/checkout",
      { amount: "100.00", order_id: "order-1", client: { email: "client@example.com" }, ...fields },
      { api_key: apiKey },
    );
    const url = response.body.result?.checkout_url;
    if (!url) throw new Error(`checkout failed: ${response.text}`);
    return url;
  }

  pay(checkoutUrl: string, card: Partial<typeof CARD> = {}): Promise<Reply<PayReply>> {
    return this.post<PayReply>("/_sim/pay", { checkout_url: checkoutUrl, ...CARD, ...card });
  }

  async ledger(): Promise<Ledger> {
    return (await this.get<Ledger>("/_sim/ledger")).body;
  }

  /** A legacy checkout asking to save the card, paid; answers its card token and transaction id. */
  async enroll(
    options: {
      kind?: "recurring" | "autosave";
      card?: string;
      amount?: string;
      orderId?: string;
      expiry?: string;
    } = {},
  ): Promise<{ token: string; transactionId: string }> {
    const orderId = options.orderId ?? `enroll-${++this.enrollments}`;
    const url = await this.addTransaction({
      orderId,
      amount: options.amount ?? "100.00",
      ...(options.kind === "autosave" ? { autoSave: "yes" } : { isRecurring: true }),
    });
    const paid = await this.pay(url, {
      card_number: options.card ?? CARD.card_number,
      expiry: options.expiry ?? CARD.expiry,
    });
    if (paid.body.status !== "SUCCESS") throw new Error(`enrollment payment failed: ${paid.text}`);
    const status = await this.legacy("CheckStatus", { orderId });
    const payment = status.body.payment;
    if (!payment?.token) throw new Error(`no token issued: ${status.text}`);
    return { token: payment.token, transactionId: payment.transactionID };
  }
}

/** Polls `probe` until it answers something other than undefined, failing after the deadline. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The query parameters of a URL as [key, value] pairs, in order. */
export function queryOf(url: string | null | undefined): [string, string][] {
  if (!url) throw new Error("no URL");
  return [...new URL(url).searchParams.entries()];
}
