/** Worker process: collects charges (GetnewPayment) in batch jobs, CHARGE_CONCURRENCY jobs at a time, within CHARGE_MAX_IN_FLIGHT and CHARGE_RATE_PER_SECOND. Run one or many (`npx tsx workers/charge-worker.ts`). */
import { charges } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("charge-worker", [charges]);
