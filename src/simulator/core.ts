import type { Logger } from "pino";
import { ControllableClock } from "../clock/index.js";
import { silentLogger } from "../logger/index.js";
import { CheckoutStore } from "./checkout/checkout-session.js";
import { EventLog } from "./events/event-log.js";
import { WebhookDispatcher } from "./events/webhooks.js";
import { DelayedApplications } from "./faults/delayed-applications.js";
import { FaultRegistry } from "./faults/fault-registry.js";
import type { MerchantSettings } from "./merchants/merchant.js";
import { MerchantStore } from "./merchants/merchant-store.js";
import { PaymentStore } from "./payments/payment-store.js";
import { RateLimits } from "./rate/rate-limits.js";
import { IdFactory } from "./support/ids.js";
import { SeededRandom } from "./support/random.js";
import { TokenStore } from "./tokens/token-store.js";
import { BearerStore } from "./v1/bearer-store.js";
import { InvoiceStore } from "./v1/invoices.js";
import { ProductCatalogue } from "./v1/products.js";

export interface SimulatorOptions {
  clock?: ControllableClock;
  /** The default merchant's API key (a GUID); drawn from the seed when absent. */
  defaultApiKey?: string;
  defaultMerchant?: Partial<MerchantSettings>;
  /** Seeds ids, tokens and fault rolls; a random seed when absent. */
  seed?: number;
  logger?: Logger;
  /** The address clients reach the simulator at, used in checkout URLs; the listening URL when absent. */
  publicUrl?: string;
  /**
   * A JSON file keeping the state across restarts: loaded at start when it exists, written after
   * changes and on close. In memory only when absent.
   */
  stateFile?: string;
  /**
   * The rate limit (API calls per second of real time, see rate/) of merchants created without
   * one, the default merchant included (`defaultMerchant.rateLimitPerSecond` overrides it for that
   * one). No limit when absent or null.
   */
  rateLimitPerSecond?: number | null;
}

/** Where the state is saved, when a state file keeps it (see state/keep-state.ts). */
export interface StatePersistence {
  /** Something may have changed; a save follows shortly. */
  changed(): void;
  /** Saves now. */
  flush(): Promise<void>;
}

/** All the simulator's state and services, shared by the route modules. */
export class SimulatorCore {
  readonly clock: ControllableClock;
  readonly logger: Logger;
  readonly ids: IdFactory;
  readonly merchants: MerchantStore;
  readonly payments = new PaymentStore();
  readonly tokens = new TokenStore();
  readonly checkouts = new CheckoutStore();
  readonly bearers = new BearerStore();
  readonly events = new EventLog();
  readonly webhooks: WebhookDispatcher;
  readonly faults: FaultRegistry;
  /** Requests held back by delayed_apply faults until their due time. */
  readonly delayed = new DelayedApplications();
  readonly invoices = new InvoiceStore();
  readonly catalogue: ProductCatalogue;
  /** Each merchant's API calls in real time, against its rate limit. */
  readonly rates = new RateLimits();
  /** The rate limit of a merchant created without one. */
  readonly defaultRateLimit: number | null;
  /** Aborted when the simulator closes, to cut short fault latencies. */
  readonly closing = new AbortController();
  publicUrl: string;
  /** Set by a state file (state/keep-state.ts); everything lives in memory without one. */
  persistence: StatePersistence | undefined;
  /** Set while a held request runs, so what it records is dated at its due time. */
  private appliedAt: number | undefined;

  constructor(options: SimulatorOptions = {}) {
    this.clock = options.clock ?? new ControllableClock();
    const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
    this.logger = options.logger ?? silentLogger;
    this.ids = new IdFactory(new SeededRandom(seed));
    // A separate stream for fault rolls, so adding a fault does not change the ids of a seeded run.
    this.faults = new FaultRegistry(new SeededRandom(seed ^ 0x9e3779b9));
    this.defaultRateLimit = options.rateLimitPerSecond ?? null;
    if (
      this.defaultRateLimit !== null &&
      !(Number.isSafeInteger(this.defaultRateLimit) && this.defaultRateLimit >= 1)
    ) {
      throw new RangeError(`rateLimitPerSecond must be a positive integer, got ${this.defaultRateLimit}`);
    }
    this.merchants = new MerchantStore(this.ids, options.defaultApiKey, {
      rateLimitPerSecond: this.defaultRateLimit,
      ...options.defaultMerchant,
    });
    this.webhooks = new WebhookDispatcher(this.events, this.logger);
    this.catalogue = new ProductCatalogue(seed);
    this.publicUrl = options.publicUrl ?? "http://127.0.0.1";
  }

  now(): number {
    return this.appliedAt ?? this.clock.now().toMillis();
  }

  /** Runs `work` as if the clock read `ms`: a held request is applied at its due time, not when noticed. */
  at<T>(ms: number, work: () => T): T {
    const outer = this.appliedAt;
    this.appliedAt = ms;
    try {
      return work();
    } finally {
      this.appliedAt = outer;
    }
  }

  changed(): void {
    this.persistence?.changed();
  }

  /** Clears all state; the default merchant comes back with the same key. The clock is left alone. */
  reset(): void {
    this.merchants.reset();
    this.payments.clear();
    this.tokens.clear();
    this.checkouts.clear();
    this.bearers.clear();
    this.events.clear();
    this.faults.clear();
    this.delayed.replace([]);
    this.invoices.clear();
    this.catalogue.clear();
    this.rates.clear();
  }

  close(): void {
    this.closing.abort();
    this.delayed.disarm();
    this.webhooks.close();
  }
}
