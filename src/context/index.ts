/**
 * What every service runs with: the engine context (built once by the composition root, src/app)
 * and the billing clock shared through the database. Below every service; imports only foundations.
 */
export type { EngineContext } from "./engine-context.js";
export {
  ClockBackwardsError,
  type ClockStore,
  createDatabaseClock,
  createSharedClock,
  type DurationInput,
  databaseClockStore,
  type InstantInput,
  isSharedClock,
  refreshClock,
  type SetOptions,
  type SharedClock,
  type SharedClockOptions,
} from "./shared-clock.js";
