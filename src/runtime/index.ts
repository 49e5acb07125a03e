export { describeEngineProcess, engineSummary } from "./banner.js";
export {
  type ConnectionProbe,
  type ConnectionWatch,
  type ConnectionWatchOptions,
  watchConnections,
} from "./connection-watch.js";
export {
  type EngineParts,
  type EngineProcess,
  type EngineProcessOptions,
  startEngineProcess,
} from "./engine-process.js";
export { exitOnFatalErrors } from "./fatal.js";
export { workerProbes } from "./probes.js";
export { type RuntimeRecord, readLiveRuntime, runtimeFileOf } from "./runtime-file.js";
export { type DatabaseSource, type EngineSetup, resolveSetup } from "./setup.js";
export { startTickThread, type TickThread } from "./tick-thread.js";
export { DEFAULT_DATA_DIR, dataDirOf, usesInProcessGateway, withZeroConfigDefaults } from "./zero-config.js";
