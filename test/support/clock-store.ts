import type { DateTime } from "luxon";
import type { ClockStore } from "../../src/context/index.js";

/**
 * The clock_state row in memory: clocks made with createSharedClock on one store behave as the
 * same billing clock seen from several processes (each caches "now" until it refreshes).
 */
export function memoryClockStore(initial: DateTime): ClockStore {
  let stored = initial;
  return {
    read: async () => stored,
    update: async (change) => {
      stored = change(stored);
      return stored;
    },
  };
}
