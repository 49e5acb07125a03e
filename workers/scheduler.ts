/**
 * Worker process: the billing scheduler and the status checks its ticks hand out. Run one or many
 * (`npx tsx workers/scheduler.ts`).
 */
import { scheduler, statusChecks } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("scheduler", [scheduler, statusChecks]);
