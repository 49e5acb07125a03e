import { performance } from "node:perf_hooks";
import type { MerchantAccount } from "../merchants/merchant.js";
import { SlidingWindow, type WindowCounters } from "./sliding-window.js";

export interface RateCounters extends WindowCounters {
  rateLimitPerSecond: number | null;
}

/**
 * Each merchant's API calls against its `rateLimitPerSecond`, over a sliding window of one second
 * in real time (performance.now): a rate limit lives in real time, so moving the simulator's clock
 * neither frees nor uses up calls. Every merchant's calls are counted, limited or not, so a
 * benchmark can read the rate a client reached.
 */
export class RateLimits {
  private readonly windows = new Map<number, SlidingWindow>();

  /** Counts the call, or refuses it (not counted in the window) with the wait until one fits. */
  admit(merchant: MerchantAccount): { retryAfterMs: number } | undefined {
    return this.windowOf(merchant).admit(performance.now(), merchant.rateLimitPerSecond);
  }

  counters(merchant: MerchantAccount): RateCounters {
    return { rateLimitPerSecond: merchant.rateLimitPerSecond, ...this.windowOf(merchant).counters() };
  }

  resetCounters(merchant: MerchantAccount): void {
    this.windowOf(merchant).resetCounters();
  }

  /** Forgets every window, for a simulator reset (merchant ids start again at 1). */
  clear(): void {
    this.windows.clear();
  }

  private windowOf(merchant: MerchantAccount): SlidingWindow {
    let window = this.windows.get(merchant.id);
    if (!window) {
      window = new SlidingWindow();
      this.windows.set(merchant.id, window);
    }
    return window;
  }
}
