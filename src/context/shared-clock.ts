import { eq } from "drizzle-orm";
import type { DateTime, Duration } from "luxon";
import { type Clock, hasNegativePart, systemClock, toDuration, toInstant } from "../clock/index.js";
import type { Db } from "../db/index.js";
import { clockState } from "../db/schema/index.js";

/**
 * The billing clock of a BILLING_CLOCK=controllable engine, shared by every process of the engine
 * through the singleton clock_state row. Rules:
 * - the row is the truth; a process sees another's move after its next refresh(), which the job
 *   and tick wrappers call first (refreshClock), so one job reads one instant from start to end;
 * - now() is synchronous and answers the instant of the last refresh, set or advance;
 * - advance() moves the stored instant (not this process's possibly stale copy) under a row lock,
 *   so concurrent advances add up, and it never moves backwards (no unit of its duration is
 *   negative);
 * - set() refuses an instant before the stored one (ClockBackwardsError) unless told `backwards`:
 *   a running engine has already billed up to the stored instant, so going back is the operator's
 *   deliberate choice. The stored instant is compared under the same row lock, not a stale copy;
 * - onChange sees the first reading and every change, so an in-process simulator's clock follows.
 */

export type DurationInput = Duration | string | { [unit: string]: number };
export type InstantInput = DateTime | Date | string;

/** Where a shared clock keeps its instant. */
export interface ClockStore {
  /** The stored instant; undefined when none is stored yet. */
  read(): Promise<DateTime | undefined>;
  /** Replaces the stored instant with `change(current)` atomically, one writer at a time. */
  update(change: (current: DateTime | undefined) => DateTime): Promise<DateTime>;
}

/** set() was asked for an instant before the stored one, without `backwards`. */
export class ClockBackwardsError extends RangeError {
  constructor(
    readonly current: DateTime,
    readonly asked: DateTime,
  ) {
    super(`the billing clock is at ${current.toISO()}; ${asked.toISO()} is before it`);
    this.name = "ClockBackwardsError";
  }
}

export interface SetOptions {
  /** Allows an instant before the stored one. */
  backwards?: boolean;
}

export interface SharedClock extends Clock {
  /** Reads the stored instant into the cache and returns it. */
  refresh(): Promise<DateTime>;
  /** Stores `instant` for every process; the past only with `backwards` (ClockBackwardsError). */
  set(instant: InstantInput, options?: SetOptions): Promise<DateTime>;
  /** Moves the stored instant forwards by an ISO duration such as "P1D"; negative durations throw. */
  advance(by: DurationInput): Promise<DateTime>;
}

export interface SharedClockOptions {
  /** The instant stored when the store holds none yet; defaults to the system time at creation. */
  start?: InstantInput;
  onChange?: (now: DateTime) => void;
}

export async function createSharedClock(
  store: ClockStore,
  options: SharedClockOptions = {},
): Promise<SharedClock> {
  const { onChange } = options;
  const start = toInstant(options.start ?? systemClock.now());
  let current = (await store.read()) ?? (await store.update((stored) => stored ?? start));
  onChange?.(current);

  const remember = (instant: DateTime): DateTime => {
    const changed = instant.toMillis() !== current.toMillis();
    current = instant;
    if (changed) onChange?.(instant);
    return instant;
  };

  return {
    now: () => current,
    async refresh() {
      return remember((await store.read()) ?? current);
    },
    async set(instant, { backwards = false } = {}) {
      const target = toInstant(instant);
      return remember(
        await store.update((stored) => {
          if (!backwards && stored !== undefined && target < stored) {
            throw new ClockBackwardsError(stored, target);
          }
          return target;
        }),
      );
    },
    async advance(by) {
      const duration = toDuration(by);
      if (duration.toMillis() < 0 || hasNegativePart(duration)) {
        throw new RangeError("the billing clock only advances forwards; use set() to go back");
      }
      return remember(await store.update((stored) => (stored ?? current).plus(duration).toUTC()));
    },
  };
}

const SINGLETON = 1;

/** The clock_state row as a ClockStore; update() holds the row lock while it computes. */
export function databaseClockStore(db: Db): ClockStore {
  const fromRow = (row: { now: Date } | undefined) => (row ? toInstant(row.now) : undefined);
  return {
    async read() {
      const [row] = await db
        .select({ now: clockState.now })
        .from(clockState)
        .where(eq(clockState.id, SINGLETON));
      return fromRow(row);
    },
    update(change) {
      return db.transaction(async (tx) => {
        const lock = () =>
          tx
            .select({ now: clockState.now })
            .from(clockState)
            .where(eq(clockState.id, SINGLETON))
            .for("update");
        let [row] = await lock();
        if (!row) {
          // The first writer creates the row; when another process creates it meanwhile, the insert
          // waits for that one to commit and does nothing, and the change applies to what it stored.
          const first = change(undefined);
          const [inserted] = await tx
            .insert(clockState)
            .values({ id: SINGLETON, now: first.toJSDate() })
            .onConflictDoNothing()
            .returning({ now: clockState.now });
          if (inserted) return first;
          [row] = await lock();
        }
        const next = change(fromRow(row));
        await tx.update(clockState).set({ now: next.toJSDate() }).where(eq(clockState.id, SINGLETON));
        return next;
      });
    },
  };
}

export function createDatabaseClock(db: Db, options: SharedClockOptions = {}): Promise<SharedClock> {
  return createSharedClock(databaseClockStore(db), options);
}

export function isSharedClock(clock: Clock): clock is SharedClock {
  const candidate = clock as Partial<SharedClock>;
  return (
    typeof candidate.refresh === "function" &&
    typeof candidate.set === "function" &&
    typeof candidate.advance === "function"
  );
}

/**
 * Call first in every job and tick: brings a shared clock up to date with the database (other
 * clocks need nothing) and returns the instant the work should use.
 */
export async function refreshClock(clock: Clock): Promise<DateTime> {
  return isSharedClock(clock) ? clock.refresh() : clock.now();
}
