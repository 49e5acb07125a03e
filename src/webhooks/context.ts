import type { Clock } from "../clock/index.js";
import type { Db } from "../db/index.js";
import type { Logger } from "../logger/index.js";
import type { WebhookRetryPolicy } from "./retry-policy.js";

/** What delivering and dispatching webhooks needs; the worker builds one at start-up. */
export interface WebhookContext {
  db: Db;
  /** The billing clock: when a delivery is due and when it was delivered. */
  clock: Clock;
  logger: Logger;
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Per request, connection to last byte of the response head. Defaults to 10 s. */
  timeoutMs?: number;
  retry?: Partial<WebhookRetryPolicy>;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
