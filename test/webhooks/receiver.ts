import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SIGNATURE_HEADER, type VerifyResult, verifyWebhookSignature } from "../../src/webhooks/index.js";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  /** What the receiver's own check, as a merchant would write it, made of the signature. */
  verification: VerifyResult;
}

/**
 * A merchant's webhook endpoint on a real HTTP server (port 0). It verifies every request with
 * verifyWebhookSignature against `secret`, records it, and answers with `respond(n)` for the n-th
 * request (from 1), 200 unless told otherwise.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  secret = "";
  respond: (n: number) => number = () => 200;
  private readonly arrivals = new EventEmitter();
  private readonly server: http.Server;

  private constructor() {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const rawBody = Buffer.concat(chunks).toString("utf8");
        const verification = verifyWebhookSignature({
          secret: this.secret,
          header: request.headers[SIGNATURE_HEADER.toLowerCase()],
          rawBody,
        });
        this.received.push({ headers: request.headers, rawBody, body: JSON.parse(rawBody), verification });
        response.writeHead(this.respond(this.received.length), { "content-type": "text/plain" });
        response.end(verification.ok ? "thanks" : `rejected: ${verification.reason}`);
        this.arrivals.emit("arrival");
      });
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves once `count` requests have arrived in all; fails after `ms`. */
  waitForCount(count: number, ms = 10_000): Promise<ReceivedWebhook[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.received.length < count) return;
        cleanup();
        resolve(this.received.slice(0, count));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${ms} ms waiting for webhook #${count}`));
      }, ms);
      const cleanup = () => {
        clearTimeout(timer);
        this.arrivals.off("arrival", check);
      };
      this.arrivals.on("arrival", check);
      check();
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }
}
