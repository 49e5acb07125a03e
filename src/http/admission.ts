/** How often the line is looked at. */
export const WINDOW_MS = 1000;
/** Fewer slow requests than this are no line (slow gateway calls, a big export). */
export const LINE = 10;

/**
 * Which requests a process lets in (in-flight-limit.ts keeps the door). Only so many at once:
 * - at most `max`;
 * - LINE while a line stands: over the last window even the quickest request took longer than
 *   `target` (CoDel's rule), or LINE or more requests in progress have been for longer than that
 *   (so fast pages finishing beside them do not hide requests stuck behind the database);
 * - once the line is gone, twice as many each window (up to `max`), so a flood that is still there
 *   meets a few requests that are slow, not `max` of them.
 * Infinity turns a limit off. Times are milliseconds on any monotonic clock.
 */
export class Admission {
  /** Requests in progress, with when each began, oldest first (a Map keeps insertion order). */
  private readonly started = new Map<object, number>();
  private allowed: number;
  private windowEnds = Number.NEGATIVE_INFINITY;
  private finished = 0;
  private quickest = Number.POSITIVE_INFINITY;

  constructor(
    private readonly max: number,
    private readonly target: number,
  ) {
    this.allowed = max;
  }

  get inProgress(): number {
    return this.started.size;
  }

  /** Lets `request` in (undefined) or says why not. */
  enter(request: object, now: number): "requests in progress" | "a line" | undefined {
    this.look(now);
    if (this.started.size >= this.allowed) {
      return this.allowed < this.max ? "a line" : "requests in progress";
    }
    this.started.set(request, now);
    return undefined;
  }

  /** `request` is done (its answer is on its way); a request not let in, or done already, is ignored. */
  leave(request: object, now: number): void {
    const began = this.started.get(request);
    if (began === undefined) return;
    this.started.delete(request);
    this.finished += 1;
    this.quickest = Math.min(this.quickest, now - began);
  }

  private look(now: number): void {
    if (now < this.windowEnds) return;
    const standing = (this.finished > 0 && this.quickest > this.target) || this.stuck(now) >= LINE;
    this.allowed = standing ? Math.min(this.max, LINE) : Math.min(this.max, this.allowed * 2);
    this.finished = 0;
    this.quickest = Number.POSITIVE_INFINITY;
    this.windowEnds = now + WINDOW_MS;
  }

  /** Requests in progress for longer than the target, counted up to LINE. */
  private stuck(now: number): number {
    let count = 0;
    for (const began of this.started.values()) {
      if (count >= LINE || now - began <= this.target) break;
      count += 1;
    }
    return count;
  }
}
