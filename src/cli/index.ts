export { exitWhenFlushed } from "./exit.js";
export type { CliIo } from "./output.js";
export { buildProgram, runCli } from "./program.js";
