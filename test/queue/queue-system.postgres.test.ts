import { afterAll, beforeAll } from "vitest";
import { createQueueSystem } from "../../src/queue/index.js";
import { queueSystemContract } from "./queue-system-contract.js";
import { createTestDatabase } from "./support.js";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

// No redisUrl, so the system runs on BullMQ's PostgreSQL backend; each test's prefix is its own schema.
queueSystemContract("postgres", (prefix) =>
  createQueueSystem({ databaseUrl: database.url, prefix, retry: { backoffMs: 10 } }),
);
