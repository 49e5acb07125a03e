import { z } from "zod";
import { toDecimalString } from "../money/index.js";
import { gatewayErrorFrom } from "./errors/index.js";
import type { GatewayReply, Transport } from "./http.js";
import type { GatewayOperation } from "./operations.js";
import { buildRequest, endpoint } from "./request.js";
import { type ReadRetryPolicy, withReadRetries } from "./retry.js";
import {
  addTransactionRequest,
  checkStatusRequest,
  getNewPaymentReply,
  getNewPaymentRequest,
  legacyEnvelope,
  legacyRefundReply,
  legacyRefundRequest,
  paymentLookupReply,
  stopRecurringRequest,
  validatePaymentRequest,
} from "./schemas/legacy.js";
import { type LegacyResult, normaliseKeys } from "./schemas/normalise.js";
import type { CheckoutResult } from "./types/common.js";
import type {
  AddTransactionInput,
  CheckStatusInput,
  GetNewPaymentInput,
  GetNewPaymentResult,
  LegacyRefundInput,
  LegacyRefundResult,
  PaymentLookup,
  StopRecurringInput,
  ValidatePaymentInput,
} from "./types/legacy.js";

export interface LegacyClient {
  addTransaction(input: AddTransactionInput): Promise<CheckoutResult>;
  refund(input: LegacyRefundInput): Promise<LegacyRefundResult>;
  checkStatus(input: CheckStatusInput): Promise<PaymentLookup>;
  validatePayment(input: ValidatePaymentInput): Promise<PaymentLookup>;
  getNewPayment(input: GetNewPaymentInput): Promise<GetNewPaymentResult>;
  stopRecurring(input: StopRecurringInput): Promise<void>;
}

export interface LegacyClientSettings {
  transport: Transport;
  legacyUrl: string;
  apiKey: string;
  encoding: "form" | "json";
  retry: ReadRetryPolicy;
}

/** A legacy reply whose envelope was read: the result, and the body with keys normalised. */
interface LegacyAnswer {
  operation: GatewayOperation;
  result: LegacyResult;
  body: unknown;
  envelope: z.output<typeof legacyEnvelope>;
  reply: GatewayReply;
}

/**
 * The legacy v3 interface: every call is a POST carrying the API key as body field `token`, and
 * every reply (failures too, often with HTTP 200) carries a `result` code.
 */
export function createLegacyClient(settings: LegacyClientSettings): LegacyClient {
  const { transport, legacyUrl, apiKey, retry } = settings;

  async function post(
    operation: GatewayOperation,
    path: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<LegacyAnswer> {
    const reply = await transport({
      operation,
      method: "POST",
      url: endpoint(legacyUrl, path),
      body: { encoding: settings.encoding, value: body },
    });
    return readEnvelope(operation, reply);
  }

  async function lookup(
    operation: GatewayOperation,
    path: string,
    body: Readonly<Record<string, unknown>>,
  ): Promise<PaymentLookup> {
    return withReadRetries(operation, retry, async () => {
      const answer = await post(operation, path, body);
      // Result 0 is check-status's "no such payment": an answer, not a failure.
      if (codeOf(answer) === 0) return { found: false };
      const { payment } = successBody(answer, paymentLookupReply);
      return { found: true, payment };
    });
  }

  return {
    async addTransaction(input) {
      const operation = "legacy.addTransaction";
      const body = buildRequest(operation, addTransactionRequest, () => ({
        token: apiKey,
        PushToken: input.pushToken,
        currencyCode: input.amount.currency,
        orderId: input.orderId,
        amount: toDecimalString(input.amount.minor, input.amount.currency),
        customerEmail: input.customerEmail,
        customerName: input.customerName,
        customerPhone: input.customerPhone,
        customerCountry: input.customerCountry,
        lang: input.lang,
        note: input.note,
        isRecurring: input.isRecurring,
        autoSave:
          input.autoSave === undefined ? undefined : input.autoSave ? ("yes" as const) : ("no" as const),
        isVoid: input.isVoid,
        cardType: input.cardType,
      }));
      const answer = await post(operation, "/v3/AddTransaction", body);
      // Success is the only reply whose result is the checkout URL instead of a code.
      if (answer.result.kind === "url") return { checkoutUrl: answer.result.url };
      throw failure(answer, answer.result.code);
    },

    async refund(input) {
      const operation = "legacy.refund";
      const body = buildRequest(operation, legacyRefundRequest, () => ({
        token: apiKey,
        orderId: input.orderId,
        transactionID: input.transactionId,
      }));
      return successBody(await post(operation, "/v3/Refund", body), legacyRefundReply);
    },

    checkStatus(input) {
      const operation = "legacy.checkStatus";
      const body = buildRequest(operation, checkStatusRequest, () => ({
        token: apiKey,
        orderId: input.orderId,
        transactionID: input.transactionId,
      }));
      return lookup(operation, "/v3/CheckStatus", body);
    },

    validatePayment(input) {
      const operation = "legacy.validatePayment";
      const body = buildRequest(operation, validatePaymentRequest, () => ({
        token: apiKey,
        orderId: input.orderId,
      }));
      return lookup(operation, "/v3/ValidatePayment", body);
    },

    async getNewPayment(input) {
      const operation = "legacy.getNewPayment";
      // The spec lists no currency field here: the token's original payment fixes the currency, and
      // the Money's currency only decides how many decimals are sent.
      const body = buildRequest(operation, getNewPaymentRequest, () => ({
        token: apiKey,
        cardToken: input.cardToken,
        orderId: input.orderId,
        amount: input.amount && toDecimalString(input.amount.minor, input.amount.currency),
      }));
      return successBody(await post(operation, "/v3/GetnewPayment", body), getNewPaymentReply);
    },

    async stopRecurring(input) {
      const operation = "legacy.stopRecurring";
      const body = buildRequest(operation, stopRecurringRequest, () => ({
        token: apiKey,
        cardToken: input.cardToken,
      }));
      successBody(await post(operation, "/v3/StopRecurring", body), z.unknown());
    },
  };
}

/**
 * Reads `result` from any legacy reply. Without one, the HTTP status decides: an error status is
 * classified as such, a success status with an unreadable body is a bad reply. A 429 (too many
 * requests: refused before processing) is that whatever error body comes with it; one whose body
 * says the payment succeeded contradicts itself, so it is a bad reply: its outcome is unknown and
 * CheckStatus settles it.
 */
function readEnvelope(operation: GatewayOperation, reply: GatewayReply): LegacyAnswer {
  const body = normaliseKeys(reply.body);
  const envelope = legacyEnvelope.safeParse(body);
  const raw = reply.json ? reply.body : reply.text;
  if (reply.status === 429) {
    const saysPaid =
      envelope.success && envelope.data.result.kind === "code" && envelope.data.result.code === 1;
    if (!saysPaid) throw gatewayErrorFrom({ kind: "http-status", operation, httpStatus: 429, raw });
    throw gatewayErrorFrom({
      kind: "bad-reply",
      operation,
      httpStatus: 429,
      description: "HTTP 429 (refused) with a body saying result 1 (paid)",
      raw,
    });
  }
  if (reply.json && envelope.success) {
    return { operation, result: envelope.data.result, body, envelope: envelope.data, reply };
  }
  if (reply.status >= 400) {
    throw gatewayErrorFrom({ kind: "http-status", operation, httpStatus: reply.status, raw });
  }
  throw gatewayErrorFrom({
    kind: "bad-reply",
    operation,
    httpStatus: reply.status,
    description: reply.json ? "reply has no readable result" : "reply is not JSON",
    raw,
  });
}

function codeOf(answer: LegacyAnswer): number | undefined {
  return answer.result.kind === "code" ? answer.result.code : undefined;
}

/** Result 1 with a body matching `schema`, or the failure the result (or the mismatch) denotes. */
function successBody<T>(answer: LegacyAnswer, schema: z.ZodType<T>): T {
  const code = codeOf(answer);
  if (code === undefined) {
    throw badReply(answer, "a checkout URL where a result code was expected");
  }
  if (code !== 1) throw failure(answer, code);
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) throw badReply(answer, `unexpected reply: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function failure(answer: LegacyAnswer, code: number) {
  const { envelope } = answer;
  return gatewayErrorFrom({
    kind: "legacy-result",
    operation: answer.operation,
    result: code,
    httpStatus: answer.reply.status,
    raw: answer.reply.body,
    ...(envelope.description === undefined ? {} : { description: envelope.description }),
    ...(envelope.transactionid === undefined ? {} : { transactionId: envelope.transactionid }),
  });
}

function badReply(answer: LegacyAnswer, description: string) {
  return gatewayErrorFrom({
    kind: "bad-reply",
    operation: answer.operation,
    httpStatus: answer.reply.status,
    description,
    raw: answer.reply.body,
  });
}
