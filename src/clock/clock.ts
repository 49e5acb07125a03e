import { DateTime, Duration } from "luxon";

/**
 * The one source of "now" for the engine and the simulator. Everything that compares or stores time
 * asks a Clock, so tests and the demo can move through billing cycles without waiting.
 */
export interface Clock {
  now(): DateTime;
}

export const systemClock: Clock = {
  now: () => DateTime.utc(),
};

export function toDuration(input: Duration | string | { [unit: string]: number }): Duration {
  const duration =
    typeof input === "string"
      ? Duration.fromISO(input)
      : Duration.isDuration(input)
        ? input
        : Duration.fromObject(input);
  if (!duration.isValid) {
    throw new RangeError(
      `invalid duration ${JSON.stringify(input)}: ${duration.invalidExplanation ?? "unparsable"}`,
    );
  }
  return duration;
}

/**
 * Whether any unit of the duration is negative. A clock that only goes forwards refuses those, not
 * just a negative total: "P1M-29D" totals one casual day, yet from 1 February it lands on 31 January.
 */
export function hasNegativePart(duration: Duration): boolean {
  return Object.values(duration.toObject()).some((value) => value < 0);
}

export function toInstant(input: DateTime | Date | string): DateTime {
  const instant =
    typeof input === "string"
      ? DateTime.fromISO(input, { setZone: true })
      : input instanceof Date
        ? DateTime.fromJSDate(input)
        : input;
  if (!instant.isValid) {
    throw new RangeError(`invalid timestamp ${String(input)}: ${instant.invalidExplanation ?? "unparsable"}`);
  }
  return instant.toUTC();
}

export interface ControllableClockOptions {
  /**
   * A running clock keeps moving with real time from wherever it was set or advanced to, so a
   * standalone simulator's payments get real timestamps while tests can still jump ahead. The
   * default is a frozen clock, which only moves when told to.
   */
  running?: boolean;
}

/** A clock that only moves when told to (or, when running, also with real time). */
export class ControllableClock implements Clock {
  private current: DateTime;
  private setAtWallMs: number;
  /** Whether it moves with real time between moves; a frozen clock only moves when told to. */
  readonly running: boolean;

  constructor(start: DateTime | Date | string = DateTime.utc(), options: ControllableClockOptions = {}) {
    this.current = toInstant(start);
    this.setAtWallMs = Date.now();
    this.running = options.running ?? false;
  }

  now(): DateTime {
    if (!this.running) return this.current;
    return this.current.plus({ milliseconds: Date.now() - this.setAtWallMs });
  }

  set(instant: DateTime | Date | string): DateTime {
    this.current = toInstant(instant);
    this.setAtWallMs = Date.now();
    return this.now();
  }

  advance(by: Duration | string | { [unit: string]: number }): DateTime {
    const duration = toDuration(by);
    if (duration.toMillis() < 0 || hasNegativePart(duration)) {
      throw new RangeError("a clock only advances forwards; use set() to go back");
    }
    this.current = this.current.plus(duration).toUTC();
    return this.now();
  }
}
