export type { EngineContext } from "./context.js";
