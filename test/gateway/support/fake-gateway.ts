import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
} from "../../../src/gateway/index.js";

/**
 * A real HTTP server on port 0 that replays the gateway's reply shapes, so the client's fetch,
 * encoding and parsing are exercised over the wire. Every request is recorded for assertions.
 */

export const API_KEY = "6f1c2b7e-3d4a-4b5c-9e8f-0a1b2c3d4e5f";
/** A card token with every character that form encoding must protect. */
export const CARD_TOKEN = "Zx+9/ab=c|d+e/f==";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  text: string;
  /** The body read by its content type: form fields or JSON. */
  body: Record<string, unknown>;
}

export type Reply = { status?: number; json: unknown } | { status?: number; text: string } | "hang";
export type Handler = (request: RecordedRequest) => Reply;

export class FakeGateway {
  readonly requests: RecordedRequest[] = [];
  private readonly handlers = new Map<string, Handler>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeGateway> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const gateway = new FakeGateway(server, `http://127.0.0.1:${port}`);
    server.on("request", (req, res) => void gateway.handle(req, res));
    return gateway;
  }

  /** Answers `path` with `handler` (or always the same reply). */
  on(path: string, handler: Handler | Reply): this {
    this.handlers.set(path, typeof handler === "function" ? handler : () => handler);
    return this;
  }

  /** Answers with the replies in turn, repeating the last one. */
  sequence(path: string, replies: Reply[]): this {
    let next = 0;
    return this.on(path, () => replies[Math.min(next++, replies.length - 1)] as Reply);
  }

  hits(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  last(path: string): RecordedRequest {
    const found = this.hits(path).at(-1);
    if (!found) throw new Error(`no request to ${path}`);
    return found;
  }

  reset(): void {
    this.requests.length = 0;
    this.handlers.clear();
  }

  client(options: Partial<GatewayClientOptions> = {}): GatewayClient {
    return createGatewayClient({
      baseUrl: this.url,
      legacyUrl: `${this.url}/legacy`,
      apiKey: API_KEY,
      timeoutMs: 2_000,
      retryBaseDelayMs: 1,
      retryMaxDelayMs: 5,
      ...options,
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", this.url);
    const type = req.headers["content-type"] ?? "";
    const body: Record<string, unknown> = type.startsWith("application/json")
      ? (JSON.parse(text || "{}") as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(text));
    const request: RecordedRequest = {
      method: req.method ?? "",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      text,
      body,
    };
    this.requests.push(request);
    const handler = this.handlers.get(url.pathname);
    const reply: Reply = handler ? handler(request) : { status: 404, json: { status: "error" } };
    if (reply === "hang") return;
    const status = reply.status ?? 200;
    if ("json" in reply) {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(reply.json));
    } else {
      res.writeHead(status, { "content-type": "text/html" }).end(reply.text);
    }
  }
}
