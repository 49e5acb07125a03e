import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../logger/index.js";
import { metricsBearerMatches } from "./auth.js";
import { collectProcessMetrics, registry } from "./registry.js";

/**
 * GET /metrics for a process that has no HTTP server of its own (a worker started with
 * METRICS_PORT): this process's counters and Node's process metrics, nothing read from the
 * database (the engine's HTTP server serves those, once for all processes). With METRICS_TOKEN
 * set, a request without `Authorization: Bearer <token>` gets a 401, as on the HTTP server.
 */
export interface MetricsServerOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
  token?: string | undefined;
  logger: Logger;
}

export interface MetricsServer {
  /** e.g. http://127.0.0.1:9464/metrics (wildcard hosts shown as loopback). */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { token, logger } = options;
  collectProcessMetrics();
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    if (token !== undefined && !metricsBearerMatches(request.headers.authorization, token)) {
      response
        .writeHead(401, { "content-type": "text/plain", "www-authenticate": "Bearer" })
        .end("unauthorized\n");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) => {
        logger.error({ err: error }, "metrics could not be collected");
        response.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host;
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  const url = `http://${shown}:${port}/metrics`;
  logger.info({ url }, "serving metrics");
  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // A scraper keeps its connection alive between scrapes; it must not hold the close open.
        server.closeAllConnections();
      }),
  };
}
