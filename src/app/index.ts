export { createEngine, type Engine, type EngineOptions } from "./bootstrap.js";
export {
  type ClockStore,
  createDatabaseClock,
  createSharedClock,
  type DurationInput,
  databaseClockStore,
  type InstantInput,
  isSharedClock,
  refreshClock,
  type SharedClock,
  type SharedClockOptions,
} from "./clock.js";
export type { EngineContext } from "./context.js";
export { runTick } from "./tick.js";
