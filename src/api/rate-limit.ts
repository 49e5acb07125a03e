import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { Config } from "../config/index.js";
import { ApiProblem } from "../problems/index.js";
import { callerOf } from "./context.js";

/**
 * onRequest hook of the /v1 scope, after authentication: each API key may make API_RATE_LIMIT
 * requests per API_RATE_WINDOW_SECONDS (0: no limit), counted in the server's rate-limit store
 * (src/http/rate-limits.ts: Redis, shared by every server, when the engine has one). One more is
 * refused with a 429 `rate_limited` problem and Retry-After; every answer carries the
 * x-ratelimit-* headers, so a client can pace itself. Counted per key, not per address: a
 * merchant's servers share one address as often as many merchants share a proxy's.
 */
export function apiRateLimit(
  scope: FastifyInstance,
  settings: Pick<Config, "API_RATE_LIMIT" | "API_RATE_WINDOW_SECONDS">,
): onRequestAsyncHookHandler | undefined {
  if (settings.API_RATE_LIMIT === 0) return undefined;
  const window = settings.API_RATE_WINDOW_SECONDS;
  return scope.rateLimit({
    max: settings.API_RATE_LIMIT,
    timeWindow: window * 1000,
    keyGenerator: (request) => `api-key:${callerOf(request).id}`,
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new ApiProblem(
        429,
        "rate_limited",
        "Too many requests",
        `this API key may make ${context.max} requests per ${window} seconds; retry in ${context.after}`,
      ),
  }) as onRequestAsyncHookHandler;
}
