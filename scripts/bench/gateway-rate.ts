/**
 * The bench's shared gateway budget (BENCH_GATEWAY_RATE): the simulator's merchant is limited to R
 * calls in any one second (a strict sliding window, 429 past it) and the engine's workers share
 * GATEWAY_RATE_PER_SECOND = R. After the charging window the simulator's own counters say whether
 * the budget held: no window saw more than R calls, nothing was refused, and how close to R the
 * charges went.
 */
import type { Check } from "./exactly-once.js";

interface RateView {
  accepted: number;
  refused: number;
  max_in_window: number;
}

async function simCall<T>(simUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${simUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

/** Limits the merchant, waits out the setup's calls still in the real-time window, zeroes the counters. */
export async function limitGateway(simUrl: string, apiKey: string, rate: number): Promise<void> {
  await simCall(simUrl, "PATCH", `/_sim/merchants/${apiKey}`, { rate_limit_per_second: rate });
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  await simCall(simUrl, "POST", `/_sim/merchants/${apiKey}/rate/reset`);
}

/** What the simulator saw of the charging window, as a line and its checks. */
export async function gatewayRate(
  simUrl: string,
  apiKey: string,
  rate: number,
  seconds: number,
): Promise<{ line: string; checks: Check[] }> {
  const view = await simCall<RateView>(simUrl, "GET", `/_sim/merchants/${apiKey}/rate`);
  const sustained = view.accepted / seconds;
  return {
    line:
      `gateway budget:       ${rate}/s shared; the simulator saw at most ${view.max_in_window} calls in any 1 s, ` +
      `${view.refused} refused (429), ${view.accepted} accepted = ${sustained.toFixed(0)}/s (${(sustained / rate).toFixed(2)} × R)`,
    checks: [
      {
        name: "gateway rate never passed (any 1 s window)",
        ok: view.max_in_window <= rate && view.refused === 0,
        detail: `max ${view.max_in_window} ≤ ${rate}, ${view.refused} refused`,
      },
    ],
  };
}
