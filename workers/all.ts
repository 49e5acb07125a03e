/**
 * Every worker role in one process (`npx tsx workers/all.ts`): scheduler, status checks, charges,
 * invoices, tokens, webhooks, messages.
 */
import {
  charges,
  invoices,
  messages,
  scheduler,
  statusChecks,
  tokens,
  webhooks,
} from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("all-workers", [scheduler, statusChecks, charges, invoices, tokens, webhooks, messages]);
