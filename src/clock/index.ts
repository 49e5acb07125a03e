export { type Clock, ControllableClock, systemClock, toDuration, toInstant } from "./clock.js";
