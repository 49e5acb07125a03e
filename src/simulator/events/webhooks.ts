import http, { type ClientRequest } from "node:http";
import https from "node:https";
import type { Logger } from "pino";
import type { EventLog, WebhookRecord } from "./event-log.js";

const TIMEOUT_MS = 10_000;

/**
 * Calls merchant webhooks with GET and a query string, once, after the payment is recorded and
 * without holding up the reply or the page. The spec shows no retries, so none are made.
 */
export class WebhookDispatcher {
  private readonly inflight = new Set<ClientRequest>();

  constructor(
    private readonly log: EventLog,
    private readonly logger: Logger,
  ) {}

  dispatch(
    entry: Omit<WebhookRecord, "url" | "method" | "state" | "response_status" | "error">,
    base: string,
  ): void {
    const url = new URL(base);
    for (const [key, value] of Object.entries(entry.params)) url.searchParams.append(key, value);
    const record: WebhookRecord = {
      ...entry,
      method: "GET",
      url: url.toString(),
      state: "pending",
      response_status: null,
      error: null,
    };
    this.log.webhooks.push(record);
    setImmediate(() => this.deliver(record, url));
  }

  private deliver(record: WebhookRecord, url: URL): void {
    const client = url.protocol === "https:" ? https : http;
    // A fresh connection per call (agent: false) so no pooled socket outlives the simulator.
    const request = client.get(url, { agent: false, timeout: TIMEOUT_MS }, (response) => {
      record.state = "delivered";
      record.response_status = response.statusCode ?? null;
      response.resume();
      response.on("end", () => this.inflight.delete(request));
    });
    this.inflight.add(request);
    request.on("timeout", () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    request.on("error", (error) => {
      this.inflight.delete(request);
      if (record.state === "delivered") return;
      record.state = "failed";
      record.error = error.message;
      this.logger.warn({ url: record.url, err: error }, "webhook delivery failed");
    });
    request.on("close", () => this.inflight.delete(request));
  }

  /** Abandons deliveries still under way, so closing the simulator is never held up by a slow merchant. */
  close(): void {
    for (const request of this.inflight) request.destroy(new Error("simulator closed"));
    this.inflight.clear();
  }
}
