import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createQueueSystem, queueSystemOptionsFromConfig } from "../../src/queue/index.js";

describe("createQueueSystem", () => {
  it("needs somewhere to keep jobs", () => {
    expect(() => createQueueSystem({})).toThrow(/redisUrl or a databaseUrl/);
  });

  it("refuses a prefix that is not also a valid schema name", () => {
    expect(() => createQueueSystem({ redisUrl: "redis://127.0.0.1:6379", prefix: "Billing:jobs" })).toThrow(
      /prefix/,
    );
  });

  it("prefers Redis when both are given, and opens nothing until used", async () => {
    const system = createQueueSystem({
      redisUrl: "redis://127.0.0.1:6379",
      databaseUrl: "postgres://postgres@127.0.0.1:5432/postgres",
    });
    expect(system.backend).toBe("redis");
    await system.close();
    expect(() => system.queue("charges")).toThrow(/closed/);
  });

  it("takes its settings from the environment", async () => {
    const options = queueSystemOptionsFromConfig(
      loadConfig({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/billing", QUEUE_BACKOFF_JITTER: "0.2" }),
    );
    expect(options).toMatchObject({
      redisUrl: undefined,
      prefix: "bullmq",
      retry: { attempts: 8, backoffMs: 5_000, jitter: 0.2 },
    });
    const system = createQueueSystem(options);
    expect(system.backend).toBe("postgres");
    await system.close();
  });
});
