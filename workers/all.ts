/** Every worker role in one process (`npx tsx workers/all.ts`): scheduler, charges, invoices, tokens, webhooks, messages. */
import { charges, invoices, messages, scheduler, tokens, webhooks } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("all-workers", [scheduler, charges, invoices, tokens, webhooks, messages]);
