/**
 * The composition root: builds the engine, its HTTP server (src/http's pages and src/api's routes)
 * and runs its tick. The request edges (http, api) are below it; the processes that run an engine
 * (src/runtime, src/cli, workers/) build theirs here, and it never imports them.
 */

export type { RunningServer } from "../http/index.js";
export { createEngine, type Engine, type EngineOptions } from "./bootstrap.js";
export { engineMessages } from "./messages.js";
export { buildServer, startServer } from "./server.js";
export { engineNeeds, loadEngineConfig } from "./settings.js";
export { runTick } from "./tick.js";
