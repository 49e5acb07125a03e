import { DateTime } from "luxon";
import { z } from "zod";
import type { Clock } from "../clock/index.js";
import { toDecimalString } from "../money/index.js";
import { BearerCache, type BearerSource, staticBearer, withBearer } from "./bearer.js";
import { gatewayErrorFrom } from "./errors/index.js";
import type { GatewayReply, GatewayRequest, Transport } from "./http.js";
import { invoiceToWire } from "./invoice-wire.js";
import type { GatewayOperation } from "./operations.js";
import { buildRequest, endpoint } from "./request.js";
import { type ReadRetryPolicy, withReadRetries } from "./retry.js";
import { invoiceReply, invoiceRequestWire } from "./schemas/invoice.js";
import { normaliseKeys } from "./schemas/normalise.js";
import { listProductsQuery, productPageReply } from "./schemas/product.js";
import {
  authorizeReply,
  checkoutReply,
  checkoutRequest,
  v1ErrorBody,
  v1RefundReply,
  v1RefundRequest,
} from "./schemas/v1.js";
import type { CheckoutResult } from "./types/common.js";
import type { Invoice, InvoiceRequest } from "./types/invoice.js";
import type {
  BearerGrant,
  CheckoutInput,
  ListProductsInput,
  ProductPage,
  V1RefundInput,
  V1RefundResult,
} from "./types/v1.js";

export interface V1Client {
  checkout(input: CheckoutInput): Promise<CheckoutResult>;
  refund(input: V1RefundInput): Promise<V1RefundResult>;
  createInvoice(input: InvoiceRequest): Promise<Invoice>;
  listProducts(input?: ListProductsInput): Promise<ProductPage>;
  authorize(): Promise<BearerGrant>;
}

export interface V1ClientSettings {
  transport: Transport;
  baseUrl: string;
  apiKey: string;
  accessToken?: string;
  authorizePath: string;
  clock: Clock;
  retry: ReadRetryPolicy;
}

/** The JSON v1 interface: api_key routes (checkout, refund) and bearer routes (invoices, products). */
export function createV1Client(settings: V1ClientSettings): V1Client {
  const { transport, baseUrl, apiKey, clock, retry } = settings;

  async function exchange<T>(
    operation: GatewayOperation,
    request: Omit<GatewayRequest, "operation">,
    success: z.ZodType<T>,
  ): Promise<T> {
    return readReply(operation, await transport({ operation, ...request }), success);
  }

  async function authorizeOnce(): Promise<BearerGrant> {
    const operation = "v1.authorize";
    const reply = await transport({
      operation,
      method: "POST",
      url: endpoint(baseUrl, settings.authorizePath),
      headers: { api_key: apiKey },
      // The payload of Authorize is not documented; the credential travels in the api_key header.
      body: { encoding: "json", value: {} },
    });
    const grant = readReply(operation, reply, z.preprocess(normaliseKeys, authorizeReply));
    if (grant.success === false || grant.bearer_token === undefined) {
      throw gatewayErrorFrom({
        kind: "auth-refused",
        operation,
        httpStatus: reply.status,
        description: grant.description ?? grant.message ?? "Authorize returned no bearer value",
        raw: reply.body,
      });
    }
    const expiresAt = expiryOf(grant.expires_in, grant.expires_at, clock);
    return { bearerToken: grant.bearer_token, ...(expiresAt ? { expiresAt } : {}) };
  }

  const authorize = () => withReadRetries("v1.authorize", retry, authorizeOnce);
  const bearer: BearerSource =
    settings.accessToken === undefined
      ? new BearerCache(authorize, clock)
      : staticBearer(settings.accessToken);

  return {
    authorize,

    async checkout(input) {
      const operation = "v1.checkout";
      const body = buildRequest(operation, checkoutRequest, () => ({
        amount: toDecimalString(input.amount.minor, input.amount.currency),
        currency: input.amount.currency,
        order_id: input.orderId,
        client: input.client,
        language: input.language,
        success_url: input.successUrl,
        failure_url: input.failureUrl,
        push_token: input.pushToken,
        save_token: input.saveToken,
        note: input.note,
      }));
      return exchange(
        operation,
        {
          method: "POST",
          url: endpoint(baseUrl, "/v1/payments/checkout"),
          headers: { api_key: apiKey },
          body: { encoding: "json", value: body },
        },
        checkoutReply,
      );
    },

    async refund(input) {
      const operation = "v1.refund";
      const body = buildRequest(operation, v1RefundRequest, () => ({
        transaction_id: input.transactionId,
        order_id: input.orderId,
      }));
      return exchange(
        operation,
        {
          method: "POST",
          url: endpoint(baseUrl, "/v1/payments/refund"),
          headers: { api_key: apiKey },
          body: { encoding: "json", value: body },
        },
        v1RefundReply,
      );
    },

    async createInvoice(input) {
      const operation = "v1.createInvoice";
      const body = buildRequest(operation, invoiceRequestWire, () => invoiceToWire(input));
      return withBearer(bearer, (token) =>
        exchange(
          operation,
          {
            method: "POST",
            url: endpoint(baseUrl, "/v1/invoices"),
            headers: { authorization: `Bearer ${token}` },
            body: { encoding: "json", value: body },
          },
          invoiceReply,
        ),
      );
    },

    async listProducts(input = {}) {
      const operation = "v1.listProducts";
      const query = buildRequest(operation, listProductsQuery, () => ({
        q: input.q,
        status: input.status,
        page: input.page,
        page_size: input.pageSize,
        from: input.from === undefined ? undefined : calendarDate(input.from),
        to: input.to === undefined ? undefined : calendarDate(input.to),
        Id: input.id,
        sku: input.sku,
        is_cashier: input.isCashier,
        is_public: input.isPublic,
        category: input.category,
        min: input.min,
        max: input.max,
      }));
      const url = endpoint(baseUrl, "/v1/products");
      for (const [key, value] of Object.entries(query)) {
        if (value !== undefined) url.searchParams.set(key, String(value));
      }
      return withReadRetries(operation, retry, () =>
        withBearer(bearer, (token) =>
          exchange(
            operation,
            {
              method: "GET",
              url,
              // The spec lists Content-Type as required on this GET as well.
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            },
            productPageReply,
          ),
        ),
      );
    },
  };
}

/** Judges a v1 reply: a 2xx without an error body must match `success`; anything else is a failure. */
function readReply<T>(operation: GatewayOperation, reply: GatewayReply, success: z.ZodType<T>): T {
  const raw = reply.json ? reply.body : reply.text;
  const error = v1ErrorBody.safeParse(reply.body);
  if (reply.status >= 200 && reply.status < 300 && !error.success) {
    const parsed = success.safeParse(reply.body);
    if (parsed.success) return parsed.data;
    throw gatewayErrorFrom({
      kind: "bad-reply",
      operation,
      httpStatus: reply.status,
      description: reply.json ? `unexpected reply: ${z.prettifyError(parsed.error)}` : "reply is not JSON",
      raw,
    });
  }
  throw gatewayErrorFrom({
    kind: "http-status",
    operation,
    httpStatus: reply.status,
    errorCode: error.data?.error.error_code,
    description: error.data?.error.description,
    raw,
  });
}

/** An expiry the gateway states, if any; one that cannot be read is ignored (renewal then waits for a 401). */
function expiryOf(
  expiresIn: number | undefined,
  expiresAt: string | number | undefined,
  clock: Clock,
): DateTime | undefined {
  if (expiresIn !== undefined && expiresIn > 0) return clock.now().plus({ seconds: expiresIn });
  if (expiresAt === undefined) return undefined;
  const instant =
    typeof expiresAt === "number" || /^\d+$/.test(expiresAt)
      ? DateTime.fromSeconds(Number(expiresAt), { zone: "utc" })
      : DateTime.fromISO(expiresAt, { setZone: true });
  return instant.isValid ? instant : undefined;
}

function calendarDate(value: string | DateTime): string {
  if (typeof value === "string") return value;
  const date = value.toISODate();
  if (date === null) throw new RangeError(`invalid date: ${value.invalidExplanation ?? "unparsable"}`);
  return date;
}
