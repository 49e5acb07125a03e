import type { DelayableOperation } from "./fault-registry.js";

/**
 * Requests a delayed_apply fault is holding back: each runs once the simulator clock reaches its
 * due time, in due order (ties in arrival order). Until then nothing of it exists anywhere, so
 * every read answers as if the request had never arrived. Kept as plain data so a state file can
 * save it.
 */
export interface DelayedApplication {
  operation: DelayableOperation;
  /** The request body exactly as received; it holds everything the operation needs. */
  body: unknown;
  receivedAt: number;
  dueAt: number;
}

/** setTimeout cannot wait longer than 2^31-1 ms; a later due time is reached by re-arming. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class DelayedApplications {
  /** Sorted by dueAt; add() keeps arrival order among equal due times. */
  private entries: DelayedApplication[] = [];
  private timer: NodeJS.Timeout | undefined;

  add(entry: DelayedApplication): void {
    const index = this.entries.findIndex((other) => other.dueAt > entry.dueAt);
    if (index < 0) this.entries.push(entry);
    else this.entries.splice(index, 0, entry);
  }

  /** Removes and answers the entries due at `now`, earliest first. */
  takeDue(now: number): DelayedApplication[] {
    const count = this.entries.findIndex((entry) => entry.dueAt > now);
    return this.entries.splice(0, count < 0 ? this.entries.length : count);
  }

  get next(): DelayedApplication | undefined {
    return this.entries[0];
  }

  all(): readonly DelayedApplication[] {
    return this.entries;
  }

  /** Calls `fire` after `ms` real milliseconds, replacing any timer armed before. */
  arm(ms: number, fire: () => void): void {
    this.disarm();
    this.timer = setTimeout(fire, Math.min(ms, MAX_TIMER_MS));
    // The server keeps a standalone process alive; a held request alone should not.
    this.timer.unref();
  }

  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Replaces the entries (a reset empties them, a state file brings them back). */
  replace(entries: readonly DelayedApplication[]): void {
    this.disarm();
    this.entries = [];
    for (const entry of entries) this.add(entry);
  }
}
