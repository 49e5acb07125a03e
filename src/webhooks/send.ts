import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

/**
 * One HTTP POST to a merchant endpoint, reduced to what a delivery records: the status code (if
 * any answer came) and an error text (if it did not count as delivered). It never throws for
 * anything the endpoint or the network does, since that is an outcome to record, not a bug.
 *
 * node:http rather than fetch, because its `lookup` option is how every address connected to goes
 * through the address policy (destination.ts). Each request opens its own connection (no agent):
 * a pooled socket would have been vetted for some other request.
 */
export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Resolves the host name; refusing an address fails the request before it connects. */
  lookup: LookupFunction;
}

/** 2xx: the endpoint accepted the event. Otherwise `error` says why it does not count. */
export type SendResult =
  | { ok: true; statusCode: number; durationMs: number }
  | { ok: false; statusCode: number | null; error: string; durationMs: number };

/** Enough of an endpoint's error page to tell what went wrong, not enough to bloat the row. */
const ERROR_BODY_CHARS = 300;

class SendTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = "SendTimeoutError";
  }
}

/** Only the beginning is read, so an endpoint cannot make us buffer an arbitrarily large reply. */
async function readSnippet(response: IncomingMessage): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of response) {
    text += decoder.decode(chunk as Buffer, { stream: true });
    if (text.length >= ERROR_BODY_CHARS) break;
  }
  return text.slice(0, ERROR_BODY_CHARS).trim();
}

/**
 * Sends the request; settles with the status and the start of the body. The timeout covers the
 * whole exchange, from connecting to the last byte read.
 */
function post(request: SendRequest): Promise<{ statusCode: number; snippet: string }> {
  const target = new URL(request.url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(target, {
      method: "POST",
      headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      lookup: request.lookup,
      agent: false,
    });
    const timer = setTimeout(
      () => outgoing.destroy(new SendTimeoutError(request.timeoutMs)),
      request.timeoutMs,
    );
    const settle =
      <T>(fn: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        outgoing.destroy();
        fn(value);
      };
    outgoing.on("error", settle(reject));
    // A redirect is not followed (node:http never does): it is a misconfigured endpoint, and
    // following it would send a signed event to a URL the merchant never registered.
    outgoing.on("response", (response) => {
      const statusCode = response.statusCode ?? 0;
      const ok = statusCode >= 200 && statusCode < 300;
      (ok ? Promise.resolve("") : readSnippet(response).catch(() => "")).then((snippet) =>
        settle(resolve)({ statusCode, snippet }),
      );
    });
    outgoing.end(request.body);
  });
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function sendWebhook(request: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { statusCode, snippet } = await post(request);
    if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode, durationMs: elapsed() };
    const error = `HTTP ${statusCode}${snippet ? `: ${snippet}` : ""}`;
    return { ok: false, statusCode, error, durationMs: elapsed() };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeFailure(error), durationMs: elapsed() };
  }
}
