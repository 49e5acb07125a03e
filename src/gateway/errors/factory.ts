import { type GatewayOperation, isMoneyMoving } from "../operations.js";
import { GatewayAuthenticationError } from "./authentication-error.js";
import { GatewayDeclinedError } from "./declined-error.js";
import type { GatewayError, GatewayErrorInit } from "./gateway-error.js";
import { GatewayNotFoundError } from "./not-found-error.js";
import { GatewayRejectedError } from "./rejected-error.js";
import { GatewayUnavailableError } from "./unavailable-error.js";
import { GatewayUnknownResultError } from "./unknown-result-error.js";

/** Every way a call can fail, as the transport and the reply classifiers observe it. */
export type GatewayFailure =
  | {
      kind: "legacy-result";
      operation: GatewayOperation;
      result: number;
      description?: string;
      transactionId?: string;
      httpStatus?: number;
      raw?: unknown;
    }
  | {
      kind: "http-status";
      operation: GatewayOperation;
      httpStatus: number;
      errorCode?: string | number;
      description?: string;
      raw?: unknown;
    }
  | { kind: "timeout"; operation: GatewayOperation; timeoutMs: number; cause?: unknown }
  | {
      kind: "network";
      operation: GatewayOperation;
      /** False when the connection was never made, so the gateway cannot have seen the request. */
      sent: boolean;
      description: string;
      cause?: unknown;
    }
  | {
      kind: "bad-reply";
      operation: GatewayOperation;
      description: string;
      httpStatus?: number;
      raw?: unknown;
    }
  | { kind: "invalid-request"; operation: GatewayOperation; description: string }
  | {
      kind: "auth-refused";
      operation: GatewayOperation;
      description: string;
      httpStatus: number;
      raw?: unknown;
    };

type LegacyMaker = (init: GatewayErrorInit) => GatewayError;

const rejected: LegacyMaker = (init) => new GatewayRejectedError(init);
const authentication: LegacyMaker = (init) => new GatewayAuthenticationError(init);
const notFound: LegacyMaker = (init) => new GatewayNotFoundError(init);

/** The legacy result codes of the specification's table, with its meaning as the fallback text. */
const LEGACY_CODES: ReadonlyMap<number, { meaning: string; make: LegacyMaker }> = new Map([
  [-1, { meaning: "Unauthorized: API key invalid or merchant profile incomplete", make: authentication }],
  [-2, { meaning: "Not Found: the orderId is unknown", make: notFound }],
  [-3, { meaning: "Not Supported: the application does not support the currency code", make: rejected }],
  [-7, { meaning: "Not Found: no recurring or autosave payment exists for the parameter", make: notFound }],
  [-8, { meaning: "Invalid: token is not a valid GUID", make: authentication }],
  [-10, { meaning: "Bad Request: required parameters were not sent", make: rejected }],
  [-20, { meaning: "Not Found: no application data for the currency", make: rejected }],
  [-21, { meaning: "Not Supported: the gateway does not support void payment", make: rejected }],
]);

function numericCode(code: string | number | undefined): number | string | undefined {
  if (typeof code === "string" && /^\d{3}$/.test(code.trim())) return Number(code.trim());
  return code;
}

/**
 * GetnewPayment's result 0 is a decline only in the shape the gateway text promises for one,
 * `{result: 0, transactionid, description}`. A reply without both names no declined payment, and a
 * gateway answering a bare `{result: 0}` had in fact taken the money (trusted, the next attempt
 * would charge again), so it is an unknown outcome: CheckStatus, not another attempt, settles it.
 */
function getNewPaymentResultZero(
  failure: Extract<GatewayFailure, { kind: "legacy-result" }>,
  base: Omit<GatewayErrorInit, "description">,
): GatewayError {
  const { description, transactionId } = failure;
  if (description !== undefined && transactionId !== undefined) {
    return new GatewayDeclinedError({ ...base, description, transactionId });
  }
  const missing = [
    ...(transactionId === undefined ? ["transactionid"] : []),
    ...(description === undefined ? ["description"] : []),
  ];
  return new GatewayUnknownResultError({
    ...base,
    description:
      "result 0 without the transactionid and description a decline carries " +
      `(missing ${missing.join(" and ")}): the payment may have been taken`,
    outcomeUnknown: true,
  });
}

function fromLegacyResult(failure: Extract<GatewayFailure, { kind: "legacy-result" }>): GatewayError {
  const { operation, result, description, raw, httpStatus } = failure;
  const base = { operation, code: result, raw, ...(httpStatus === undefined ? {} : { httpStatus }) };
  if (result === 0 && operation === "legacy.getNewPayment") {
    return getNewPaymentResultZero(failure, base);
  }
  const known = LEGACY_CODES.get(result);
  if (known) return known.make({ ...base, description: description ?? known.meaning });
  const text = `unknown result code ${result}`;
  return new GatewayUnknownResultError({
    ...base,
    description: description ? `${text}: ${description}` : text,
    outcomeUnknown: isMoneyMoving(operation),
  });
}

function fromHttpStatus(failure: Extract<GatewayFailure, { kind: "http-status" }>): GatewayError {
  const { operation, httpStatus, raw } = failure;
  const errorCode = numericCode(failure.errorCode);
  // A 2xx carrying an error body is classified by the error_code it names.
  const status = httpStatus < 300 && typeof errorCode === "number" ? errorCode : httpStatus;
  const init: GatewayErrorInit = {
    operation,
    code: errorCode ?? httpStatus,
    description: failure.description ?? `HTTP ${httpStatus}`,
    raw,
    httpStatus,
  };
  if (status === 401 || status === 403) return new GatewayAuthenticationError(init);
  if (status === 404) return new GatewayNotFoundError(init);
  // 429 means the gateway refused before processing, so even a money-moving call did nothing.
  if (status === 429) return new GatewayUnavailableError({ ...init, outcomeUnknown: false });
  if (status >= 400 && status < 500) return new GatewayRejectedError(init);
  return new GatewayUnavailableError({ ...init, outcomeUnknown: isMoneyMoving(operation) });
}

/**
 * The one place a failure becomes an error class (in the manner of stripe-node's `generate`). Flags
 * follow from the class and the operation: only money-moving calls can have an unknown outcome.
 */
export function gatewayErrorFrom(failure: GatewayFailure): GatewayError {
  const { operation } = failure;
  switch (failure.kind) {
    case "legacy-result":
      return fromLegacyResult(failure);
    case "http-status":
      return fromHttpStatus(failure);
    case "timeout":
      return new GatewayUnavailableError({
        operation,
        code: "timeout",
        description: `no reply within ${failure.timeoutMs} ms`,
        cause: failure.cause,
        outcomeUnknown: isMoneyMoving(operation),
      });
    case "network":
      return new GatewayUnavailableError({
        operation,
        code: "network_error",
        description: failure.description,
        cause: failure.cause,
        outcomeUnknown: failure.sent && isMoneyMoving(operation),
      });
    case "bad-reply":
      return new GatewayUnavailableError({
        operation,
        code: "bad_reply",
        description: failure.description,
        raw: failure.raw,
        ...(failure.httpStatus === undefined ? {} : { httpStatus: failure.httpStatus }),
        outcomeUnknown: isMoneyMoving(operation),
      });
    case "invalid-request":
      return new GatewayRejectedError({
        operation,
        code: "invalid_request",
        description: failure.description,
      });
    case "auth-refused":
      return new GatewayAuthenticationError({
        operation,
        code: "auth_refused",
        description: failure.description,
        httpStatus: failure.httpStatus,
        raw: failure.raw,
      });
  }
}
