/**
 * One HTTP POST to a merchant endpoint, reduced to what a delivery records: the status code (if
 * any answer came) and an error text (if it did not count as delivered). It never throws for
 * anything the endpoint or the network does, since that is an outcome to record, not a bug.
 */
export interface SendRequest {
  fetch: typeof fetch;
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** 2xx: the endpoint accepted the event. Otherwise `error` says why it does not count. */
export type SendResult =
  | { ok: true; statusCode: number; durationMs: number }
  | { ok: false; statusCode: number | null; error: string; durationMs: number };

/** Enough of an endpoint's error page to tell what went wrong, not enough to bloat the row. */
const ERROR_BODY_CHARS = 300;

async function readSnippet(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  // Only the beginning is read, so an endpoint cannot make us buffer an arbitrarily large reply.
  while (text.length < ERROR_BODY_CHARS) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text.slice(0, ERROR_BODY_CHARS).trim();
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return `no response within ${timeoutMs} ms`;
  }
  if (error instanceof Error) {
    // undici reports "fetch failed" and puts the useful part (ECONNREFUSED, DNS) in the cause.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

export async function sendWebhook(request: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const response = await request.fetch(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      // A redirect is a misconfigured endpoint, and following it would send a signed event to a
      // URL the merchant never registered.
      redirect: "manual",
      signal,
    });
    if (response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true, statusCode: response.status, durationMs: elapsed() };
    }
    const snippet = await readSnippet(response).catch(() => "");
    const error = `HTTP ${response.status}${snippet ? `: ${snippet}` : ""}`;
    return { ok: false, statusCode: response.status, error, durationMs: elapsed() };
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      error: describeFailure(error, request.timeoutMs),
      durationMs: elapsed(),
    };
  }
}
