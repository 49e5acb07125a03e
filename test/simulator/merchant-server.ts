import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  query: [string, string][];
}

/**
 * A tiny merchant backend for redirects and webhooks: records every request and answers 200, or
 * holds answers back while `hold()` is in effect.
 */
export class MerchantServer {
  readonly received: ReceivedRequest[] = [];
  private readonly server: http.Server;
  private held: http.ServerResponse[] | undefined;
  private readonly listeners = new Set<() => void>();

  private constructor() {
    this.server = http.createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://merchant");
      this.received.push({
        method: request.method ?? "",
        path: url.pathname,
        query: [...url.searchParams.entries()],
      });
      for (const listener of this.listeners) listener();
      if (this.held) this.held.push(response);
      else response.writeHead(200, { "content-type": "text/html" }).end("<h1>merchant page</h1>");
    });
  }

  static async start(): Promise<MerchantServer> {
    const merchant = new MerchantServer();
    await new Promise<void>((resolve) => merchant.server.listen(0, "127.0.0.1", resolve));
    return merchant;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves with the first request (already received or next) to this path. */
  waitForRequest(path: string): Promise<ReceivedRequest> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.received.find((request) => request.path === path);
        if (!found) return false;
        this.listeners.delete(listener);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      this.listeners.add(listener);
      check();
    });
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    for (const response of this.held ?? []) response.writeHead(200).end("ok");
    this.held = undefined;
  }

  clear(): void {
    this.received.length = 0;
  }

  close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
