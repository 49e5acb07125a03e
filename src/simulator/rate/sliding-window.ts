/**
 * One merchant's accepted calls over a strict sliding window of one second: a call at `now` is
 * admitted only when fewer than `limit` accepted calls arrived in (now - 1000 ms, now]. Refused
 * calls leave the window alone. It also counts accepted and refused calls and the most accepted
 * calls any one-second window held since the counters were reset.
 *
 * The arrival times of the window's calls sit in a ring buffer, oldest first, so each call costs
 * O(1) amortised; the buffer grows only when full, so it holds at most the calls of one second
 * (at most `limit` for a limited merchant).
 */
export const WINDOW_MS = 1000;

export interface WindowCounters {
  accepted: number;
  refused: number;
  /** The most accepted calls in any one-second window since the counters were reset. */
  maxInWindow: number;
}

export class SlidingWindow {
  private times = new Float64Array(8);
  private head = 0;
  private size = 0;
  /** How many of the held times came before the counters were reset; being oldest, they leave first. */
  private beforeReset = 0;
  private accepted = 0;
  private refused = 0;
  private maxInWindow = 0;

  /**
   * Admits the call arriving at `now` (milliseconds, never decreasing) unless `limit` calls are
   * already in the window (null: no limit). When refused, answers how many milliseconds until
   * enough of them have left for one more call to fit.
   */
  admit(now: number, limit: number | null): { retryAfterMs: number } | undefined {
    this.evict(now);
    if (limit !== null && this.size >= limit) {
      this.refused++;
      // A lowered limit can leave more than `limit` calls inside; the one at index size - limit
      // is the last that has to leave.
      return { retryAfterMs: this.at(this.size - limit) + WINDOW_MS - now };
    }
    this.push(now);
    this.accepted++;
    // Any window's busiest moment ends at an arrival, so checking at each arrival finds the maximum.
    this.maxInWindow = Math.max(this.maxInWindow, this.size - this.beforeReset);
    return undefined;
  }

  counters(): WindowCounters {
    return { accepted: this.accepted, refused: this.refused, maxInWindow: this.maxInWindow };
  }

  /** Zeroes the counters; the calls still in the window keep limiting, but no longer count toward the maximum. */
  resetCounters(): void {
    this.accepted = 0;
    this.refused = 0;
    this.maxInWindow = 0;
    this.beforeReset = this.size;
  }

  private at(index: number): number {
    return this.times[(this.head + index) % this.times.length]!;
  }

  /** Drops the calls a whole window old or older: they are outside (now - 1000 ms, now]. */
  private evict(now: number): void {
    while (this.size > 0 && this.at(0) <= now - WINDOW_MS) {
      this.head = (this.head + 1) % this.times.length;
      this.size--;
      if (this.beforeReset > 0) this.beforeReset--;
    }
  }

  private push(time: number): void {
    if (this.size === this.times.length) {
      const grown = new Float64Array(this.times.length * 2);
      for (let index = 0; index < this.size; index++) grown[index] = this.at(index);
      this.times = grown;
      this.head = 0;
    }
    this.times[(this.head + this.size) % this.times.length] = time;
    this.size++;
  }
}
