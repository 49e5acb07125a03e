/**
 * What a readiness check says, and how a set of them runs: concurrently, each bounded by its own
 * timeout, so one hung dependency makes its own check fail instead of hanging the probe. A check
 * that throws or does not answer in time is failing, with the error or the timeout as its reason.
 */

/** ok; warn: still ready, but worth a look; failing: not ready. */
export type CheckStatus = "ok" | "warn" | "failing";

export interface CheckResult {
  status: CheckStatus;
  /** One line for a person: what was seen, and what to do when it is not ok. */
  reason: string;
  /** What the reason is based on, JSON-ready (snake_case keys, ISO instants). */
  detail?: Record<string, unknown>;
}

export type CheckName = "database" | "queue" | "gateway" | "tick" | "gateway_breaker";

/** ready; paused: only the gateway circuit breaker is open; not_ready: anything else failing. */
export type ReadinessStatus = "ready" | "paused" | "not_ready";

export interface Readiness {
  status: ReadinessStatus;
  checks: Record<CheckName, CheckResult>;
}

export type Check = () => Promise<CheckResult>;

/** Long enough for a loaded database or queue, short enough for an orchestrator's probe timeout. */
export const CHECK_TIMEOUT_MS = 2_000;

/** The message of an error, with the cause a fetch or driver error hides behind it. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause instanceof Error && cause.message && cause.message !== error.message) {
    return `${error.message}: ${cause.message}`;
  }
  return error.message || error.name;
}

function withTimeout(check: Check, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: "failing", reason: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    timer.unref();
  });
  const answer = Promise.resolve()
    .then(check)
    .catch((error: unknown): CheckResult => ({ status: "failing", reason: describeError(error) }));
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}

export async function runChecks(
  checks: Record<CheckName, Check>,
  { timeoutMs = CHECK_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<Readiness> {
  const names = Object.keys(checks) as CheckName[];
  const entries = await Promise.all(
    names.map(async (name) => [name, await withTimeout(checks[name], timeoutMs)] as const),
  );
  const failing = entries.filter(([, result]) => result.status === "failing").map(([name]) => name);
  const status: ReadinessStatus =
    failing.length === 0
      ? "ready"
      : failing.every((name) => name === "gateway_breaker")
        ? "paused"
        : "not_ready";
  return { status, checks: Object.fromEntries(entries) as Record<CheckName, CheckResult> };
}
