/** Delivers outgoing merchant webhooks (`npx tsx workers/webhook-worker.ts`). */
import { webhooks } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("webhook-worker", [webhooks]);
