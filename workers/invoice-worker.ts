/** Worker process: creates gateway invoices for charges that stay unpaid when dunning ends. Run one or many (`npx tsx workers/invoice-worker.ts`). */
import { invoices } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("invoice-worker", [invoices]);
