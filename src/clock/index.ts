export {
  type Clock,
  ControllableClock,
  type ControllableClockOptions,
  hasNegativePart,
  systemClock,
  toDuration,
  toInstant,
} from "./clock.js";
