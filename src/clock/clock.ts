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

/** A clock that stands still until told to move; time never goes backwards unless set explicitly. */
export class ControllableClock implements Clock {
  private current: DateTime;

  constructor(start: DateTime | Date | string = DateTime.utc()) {
    this.current = toInstant(start);
  }

  now(): DateTime {
    return this.current;
  }

  set(instant: DateTime | Date | string): DateTime {
    this.current = toInstant(instant);
    return this.current;
  }

  advance(by: Duration | string | { [unit: string]: number }): DateTime {
    const duration = toDuration(by);
    if (duration.toMillis() < 0) {
      throw new RangeError("a clock only advances forwards; use set() to go back");
    }
    this.current = this.current.plus(duration).toUTC();
    return this.current;
  }
}
