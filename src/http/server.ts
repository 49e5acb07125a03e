import { createServer } from "node:http";
import formbody from "@fastify/formbody";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { type Config, explainListenError } from "../config/index.js";
import type { EngineContext } from "../context/index.js";
import { refreshClock } from "../context/index.js";
import type { Logger } from "../logger/index.js";
import { type RequestGate, registerInFlightLimit } from "./in-flight-limit.js";
import { registerLoadShedding } from "./load-shedding.js";
import { PathOnlyLogController, pathOf } from "./log-controller.js";
import { registerRateLimits } from "./rate-limits.js";
import { trustProxyOption } from "./trust-proxy.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route does not need the shared billing clock refreshed before it runs. */
    readsNoClock?: boolean;
  }
}

export interface BuildServerOptions {
  /** Defaults to the context's logger. */
  logger?: Logger;
}

/**
 * The engine's Fastify instance before any route is on it: what every request passes whichever
 * area answers it. The composition root puts the routes on (src/app/server.ts).
 * Requests are logged by path only (PathOnlyLogController): callback URLs carry card tokens.
 * Load shedding comes first, so a refused request costs nothing else; TRUST_PROXY says whose
 * X-Forwarded-* headers make request.ip and request.protocol.
 */
export function createHttpServer(
  ctx: EngineContext,
  { logger = ctx.logger }: BuildServerOptions = {},
): FastifyInstance {
  // Typed as Fastify's base logger so the instance is the plain FastifyInstance route modules take.
  const loggerInstance: FastifyBaseLogger = logger;
  // The server's requests pass the load-shedding gate (in-flight-limit.ts) before Fastify's.
  let gate: RequestGate = () => false;
  const app = Fastify({
    loggerInstance,
    logController: new PathOnlyLogController(),
    trustProxy: trustProxyOption(ctx.config.TRUST_PROXY),
    serverFactory: (handler, options) => {
      const server = createServer((request, response) => {
        if (!gate(request, response)) handler(request, response);
      });
      // What Fastify sets on a server it makes itself (its options, defaults filled in).
      const timeouts = options as {
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
      };
      server.keepAliveTimeout = timeouts.keepAliveTimeout ?? server.keepAliveTimeout;
      server.requestTimeout = timeouts.requestTimeout ?? server.requestTimeout;
      server.setTimeout(timeouts.connectionTimeout ?? 0);
      return server;
    },
  });
  gate = registerInFlightLimit(app, ctx.config);
  registerLoadShedding(app, ctx.config);
  registerRateLimits(app, ctx.config);
  app.register(formbody);

  // Errors are answered without their message for 5xx: it may name internals.
  app.setErrorHandler(async (error, request, reply) => {
    const status =
      typeof error === "object" &&
      error !== null &&
      "statusCode" in error &&
      typeof error.statusCode === "number"
        ? error.statusCode
        : 500;
    if (status >= 500) {
      request.log.error({ err: error, method: request.method, path: pathOf(request.url) }, "request failed");
      return reply.code(500).send({ error: "internal error" });
    }
    return reply.code(status).send({ error: error instanceof Error ? error.message : "bad request" });
  });

  // Every request reads the shared billing clock afresh (gateway callbacks, result and new-card
  // pages, the merchant API): a process that serves HTTP must not act on a stale "now". A route
  // that uses no billing time and must answer while the database is down (health probes, metrics
  // scrapes, which read the clock themselves within a bound) declares `readsNoClock`. Added once
  // the plugins above are loaded, so it runs after load shedding's hook.
  app.after(() => {
    app.addHook("onRequest", async (request) => {
      if (request.routeOptions.config.readsNoClock) return;
      await refreshClock(ctx.clock);
    });
  });

  return app;
}

/**
 * Connections the kernel holds for the server to accept (capped by net.core.somaxconn). Node's 511
 * drops a burst's connections unseen: their clients wait seconds to retry the handshake instead of
 * getting the quick answer (or 503) the server would give them.
 */
const LISTEN_BACKLOG = 8192;

export interface StartServerOptions extends BuildServerOptions {
  /** Default: the PORT setting; 0 picks a free port. */
  port?: number;
  /** Default: the HOST setting. */
  host?: string;
}

export interface RunningServer {
  app: FastifyInstance;
  /** Where the server listens, e.g. http://127.0.0.1:3000 (wildcard hosts shown as loopback). */
  url: string;
  close(): Promise<void>;
}

/** Starts `app` listening where `options` say, else at HOST and PORT (a port in use named as PORT). */
export async function listenServer(
  app: FastifyInstance,
  config: Pick<Config, "HOST" | "PORT">,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? config.HOST;
  const port = options.port ?? config.PORT;
  await app.listen({ port, host, backlog: LISTEN_BACKLOG }).catch((error: unknown) => {
    throw options.port === undefined ? explainListenError(error, "PORT", port) : error;
  });
  const address = app.server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return { app, url: `http://${shown}:${bound}`, close: () => app.close() };
}
