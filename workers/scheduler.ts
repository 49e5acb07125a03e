/** Worker process: the billing scheduler. Run one or many (`npx tsx workers/scheduler.ts`). */
import { scheduler } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("scheduler", [scheduler]);
