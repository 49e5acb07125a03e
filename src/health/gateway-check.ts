import { performance } from "node:perf_hooks";
import type { EngineContext } from "../context/index.js";
import { type CheckResult, describeError } from "./check.js";

/**
 * gateway: reachable means any HTTP answer (any status) to a GET of the gateway's base URL within
 * the timeout; a refused connection, a name that does not resolve or no answer in time is failing.
 * No payment operation is called. A result is kept for GATEWAY_CACHE_MS per process and base URL
 * (a probe in flight is shared), so a tight probe loop sends the gateway at most one request per
 * period.
 */

const GATEWAY_CACHE_MS = 5_000;

const cache = new Map<string, { until: number; result: Promise<CheckResult> }>();

/** The base URL without credentials or query, as shown in the check's detail. */
function shown(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

async function probe(baseUrl: string, timeoutMs: number): Promise<CheckResult> {
  const url = shown(baseUrl);
  const started = performance.now();
  try {
    const response = await fetch(baseUrl, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    const responseMs = Math.round(performance.now() - started);
    return {
      status: "ok",
      reason: `${url} answered HTTP ${response.status} in ${responseMs} ms`,
      detail: { url, http_status: response.status, response_ms: responseMs },
    };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return {
      status: "failing",
      reason: `${url} unreachable: ${timedOut ? `no answer within ${timeoutMs} ms` : describeError(error)}`,
      detail: { url },
    };
  }
}

export function gatewayCheck(ctx: Pick<EngineContext, "gateway">, timeoutMs: number): Promise<CheckResult> {
  const { baseUrl } = ctx.gateway;
  const now = performance.now();
  const cached = cache.get(baseUrl);
  if (cached && cached.until > now) return cached.result;
  const result = probe(baseUrl, timeoutMs);
  cache.set(baseUrl, { until: now + GATEWAY_CACHE_MS, result });
  return result;
}
