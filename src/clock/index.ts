export {
  type Clock,
  ControllableClock,
  type ControllableClockOptions,
  systemClock,
  toDuration,
  toInstant,
} from "./clock.js";
