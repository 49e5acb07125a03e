/** The composition root: builds the engine and runs its tick. Nothing below it imports it. */
export { createEngine, type Engine, type EngineOptions } from "./bootstrap.js";
export { engineMessages } from "./messages.js";
export { engineNeeds, loadEngineConfig } from "./settings.js";
export { runTick } from "./tick.js";
