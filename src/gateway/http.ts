import { type Logger, redact, redactText } from "../logger/index.js";
import { observeGatewayCall } from "../metrics/index.js";
import { type GatewayError, gatewayErrorFrom } from "./errors/index.js";
import { CONNECT_TIMEOUT_CODE, createNodeSender, type Send } from "./node-transport.js";
import type { GatewayOperation } from "./operations.js";

/**
 * The transport every operation goes through: one request with a timeout (node:http through a
 * keep-alive agent, see node-transport.ts; an injected fetch when a caller passes one), the body
 * encoded as asked, the reply read as JSON when it is JSON, and both sides logged at debug with
 * secrets removed. It classifies only failures that have no reply; replies are judged by the v1 and
 * legacy clients. Every call is timed here, the one place all of them pass
 * (billing_gateway_request_duration_seconds): ok for a reply below 500, error for a 5xx or a failure
 * without reply, timeout for the timeout (a connect timeout included).
 */

export interface RequestBody {
  encoding: "json" | "form";
  value: Readonly<Record<string, unknown>>;
}

export interface GatewayRequest {
  operation: GatewayOperation;
  method: "GET" | "POST";
  url: URL;
  headers?: Readonly<Record<string, string>>;
  body?: RequestBody;
}

export interface GatewayReply {
  status: number;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  json: boolean;
  text: string;
}

export interface TransportOptions {
  /** The wire; default a node:http sender shared by the transports built without one. */
  send?: Send;
  /** A fetch to send with instead (tests, other runtimes); ignored when `send` is given. */
  fetch?: typeof fetch;
  timeoutMs: number;
  logger: Logger;
}

export type Transport = (request: GatewayRequest) => Promise<GatewayReply>;

/** Error codes meaning the connection was never made, so the gateway cannot have seen the request. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
  CONNECT_TIMEOUT_CODE,
]);

/** Longest reply text kept for logs and errors; gateway error pages can be large. */
const TEXT_LIMIT = 2_000;

let sharedSender: Send | undefined;

/** The node:http wire for transports built without one, made on first use. */
function defaultSender(): Send {
  sharedSender ??= createNodeSender().send;
  return sharedSender;
}

export function createTransport(options: TransportOptions): Transport {
  const { logger, timeoutMs } = options;
  const send = options.send ?? (options.fetch === undefined ? defaultSender() : fetchSender(options.fetch));
  return async (request) => {
    const { operation } = request;
    const { headers, payload } = encode(request);
    // Checked first: redacting a request costs more than sending it when nobody reads the line.
    const debug = logger.isLevelEnabled("debug");
    if (debug)
      logger.debug(
        {
          operation,
          request: redact({
            method: request.method,
            url: request.url.toString(),
            headers,
            body: request.body?.value,
          }),
        },
        "gateway request",
      );
    const started = performance.now();
    let status: number;
    let text: string;
    try {
      // Never follows a redirect: a redirected POST would silently become a GET; a redirect is
      // reported as a bad reply instead.
      ({ status, text } = await send({
        method: request.method,
        url: request.url,
        headers,
        ...(payload === undefined ? {} : { body: payload }),
        timeoutMs,
      }));
    } catch (error) {
      const timedOut = isTimeout(error) || causeCode(error) === CONNECT_TIMEOUT_CODE;
      observeGatewayCall(operation, timedOut ? "timeout" : "error", seconds(started));
      const failure = transportFailure(operation, error, timeoutMs);
      logger.debug({ operation, ms: elapsed(started), error: failure.message }, "gateway call failed");
      throw failure;
    }
    observeGatewayCall(operation, status >= 500 ? "error" : "ok", seconds(started));
    const { body, json } = parseJson(text);
    if (debug)
      logger.debug(
        { operation, status, ms: elapsed(started), reply: redact(json ? body : clip(text)) },
        "gateway reply",
      );
    return { status, body, json, text: clip(text) };
  };
}

/** The fetch wire, as the transport used it before node-transport.ts: one AbortSignal per call. */
function fetchSender(fetchImpl: typeof fetch): Send {
  return async ({ method, url, headers, body, timeoutMs }) => {
    const response = await fetchImpl(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  };
}

function encode(request: GatewayRequest): { headers: Record<string, string>; payload?: string } {
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  const { body } = request;
  if (body === undefined) return { headers };
  if (body.encoding === "json") {
    return {
      headers: { ...headers, "content-type": "application/json" },
      payload: JSON.stringify(body.value),
    };
  }
  // URLSearchParams percent-encodes + / = | so card tokens arrive intact.
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body.value)) {
    if (value !== undefined && value !== null) form.append(key, String(value));
  }
  return {
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    payload: form.toString(),
  };
}

function parseJson(text: string): { body: unknown; json: boolean } {
  if (text.trim() === "") return { body: undefined, json: false };
  try {
    return { body: JSON.parse(text), json: true };
  } catch {
    return { body: undefined, json: false };
  }
}

function transportFailure(operation: GatewayOperation, error: unknown, timeoutMs: number): GatewayError {
  if (isTimeout(error)) return gatewayErrorFrom({ kind: "timeout", operation, timeoutMs, cause: error });
  const code = causeCode(error);
  return gatewayErrorFrom({
    kind: "network",
    operation,
    sent: code === undefined || !NOT_SENT_CODES.has(code),
    description: code === undefined ? `network error: ${messageOf(error)}` : `network error ${code}`,
    cause: error,
  });
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** undici reports the system error (ECONNREFUSED and the like) as the cause of "fetch failed". */
function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = current.cause;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return redactText(error instanceof Error ? error.message : String(error));
}

function clip(text: string): string {
  return text.length > TEXT_LIMIT ? `${text.slice(0, TEXT_LIMIT)}…` : text;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function seconds(started: number): number {
  return (performance.now() - started) / 1000;
}
