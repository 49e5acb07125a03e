/** Worker process: stops saved cards at the gateway (StopRecurring) when their subscriptions end. Run one or many (`npx tsx workers/token-worker.ts`). */
import { tokens } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("token-worker", [tokens]);
