import { exponentialBackoff } from "../billing/index.js";

/**
 * When a failed delivery is tried again. A merchant's endpoint that is down for a deploy should
 * get the event minutes later; one that is down for hours should not be hammered meanwhile. With
 * the defaults the retries come after about 30 s, 1, 2, 4, … 128 min: ten attempts over some
 * four hours, after which the delivery is marked failed and stays listed for inspection.
 */
export interface WebhookRetryPolicy {
  /** Total attempts, the first included; after the last one fails the delivery is failed. */
  maxAttempts: number;
  /** Delay after the first failed attempt; each later one doubles it. */
  baseDelayMs: number;
  /** No delay is longer than this. */
  maxDelayMs: number;
  /**
   * Fraction (0..1) of each delay taken off at random, so the deliveries of an endpoint that
   * failed together (an outage) do not all come back at the same instant. Taking off rather than
   * adding keeps every delay within the cap and never shortens it to nothing.
   */
  jitter: number;
}

export const DEFAULT_WEBHOOK_RETRY_POLICY: WebhookRetryPolicy = {
  maxAttempts: 10,
  baseDelayMs: 30_000,
  maxDelayMs: 6 * 60 * 60 * 1000,
  jitter: 0.2,
};

export function webhookRetryPolicy(overrides: Partial<WebhookRetryPolicy> = {}): WebhookRetryPolicy {
  const policy = { ...DEFAULT_WEBHOOK_RETRY_POLICY, ...overrides };
  if (!Number.isSafeInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new RangeError(`maxAttempts must be a whole number from 1, got ${policy.maxAttempts}`);
  }
  if (!(policy.jitter >= 0 && policy.jitter <= 1)) {
    throw new RangeError(`jitter must be between 0 and 1, got ${policy.jitter}`);
  }
  return policy;
}

/**
 * Milliseconds to wait after failed attempt number `attempt` (from 1): min(cap, base × 2^(attempt-1)),
 * less up to `jitter` of it.
 */
export function webhookRetryDelay(
  attempt: number,
  policy: WebhookRetryPolicy,
  random: () => number = Math.random,
): number {
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a whole number from 1, got ${attempt}`);
  }
  const ceiling = exponentialBackoff({
    attempt: attempt - 1,
    baseMs: policy.baseDelayMs,
    capMs: policy.maxDelayMs,
    jitter: "none",
  });
  return ceiling - Math.floor(policy.jitter * random() * ceiling);
}
