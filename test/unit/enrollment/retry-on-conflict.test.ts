import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { retryOnConflict } from "../../../src/enrollment/retry-on-conflict.js";

/** As drizzle throws it: the driver's error (only its code matters here) as the cause of its own. */
function pgFailure(code: string): Error {
  const driverError: postgres.PostgresError = Object.assign(Object.create(postgres.PostgresError.prototype), {
    code,
  });
  return new Error("Failed query", { cause: driverError });
}

describe("retryOnConflict", () => {
  it("runs a transaction again after a deadlock", async () => {
    let calls = 0;
    const result = await retryOnConflict(async () => {
      calls += 1;
      if (calls < 3) throw pgFailure("40P01");
      return "done";
    });
    expect([result, calls]).toEqual(["done", 3]);
  });

  it("gives up after three attempts", async () => {
    let calls = 0;
    const run = retryOnConflict(async () => {
      calls += 1;
      throw pgFailure("40001");
    });
    await expect(run).rejects.toThrow("Failed query");
    expect(calls).toBe(3);
  });

  it("does not repeat other failures", async () => {
    let calls = 0;
    const run = retryOnConflict(async () => {
      calls += 1;
      throw pgFailure("23505");
    });
    await expect(run).rejects.toThrow();
    expect(calls).toBe(1);
  });
});
