import type { Clock } from "../clock/index.js";
import type { Config } from "../config/index.js";
import type { TokenVault } from "../crypto/index.js";
import type { Db } from "../db/index.js";
import type { Logger } from "../logger/index.js";
import type { ResolveHost } from "./destination.js";
import type { WebhookRetryPolicy } from "./retry-policy.js";

/** What delivering and dispatching webhooks needs; the worker builds one at start-up. */
export interface WebhookContext {
  db: Db;
  /** The billing clock: when a delivery is due and when it was delivered. */
  clock: Clock;
  logger: Logger;
  /** Seals endpoint signing secrets at rest and opens them to sign (see secrets.ts); signs payment links. */
  vault: TokenVault;
  /** Where customers reach our server: the payment link a charge object carries (attach-objects.ts). */
  publicUrl: string;
  /** WEBHOOK_ALLOWED_HOSTS: where endpoints may be although internal (see address-policy.ts). */
  config: Pick<Config, "WEBHOOK_ALLOWED_HOSTS">;
  /** Injectable for tests; defaults to the system resolver. */
  resolve?: ResolveHost;
  /** Per request, connection to the last byte read. Defaults to 10 s. */
  timeoutMs?: number;
  retry?: Partial<WebhookRetryPolicy>;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
