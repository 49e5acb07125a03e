/** Sends customer messages (receipts, payment notices) over SMTP, or keeps them when SMTP_URL is unset (`npx tsx workers/message-worker.ts`). */
import { messages } from "../src/runtime/roles.js";
import { runWorkers } from "./run.js";

await runWorkers("message-worker", [messages]);
