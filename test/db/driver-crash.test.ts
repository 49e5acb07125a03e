import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbClient } from "../../src/db/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";

/**
 * The postgres.js 3.4.9 repair (scripts/patch-dependencies.mjs, run on install). Unrepaired, a
 * transaction whose backend is terminated mid-query makes the driver write its ROLLBACK to a null
 * socket from a setImmediate: an uncaught TypeError that fails this run, or, caught, a connection
 * that answers the next query with the dead backend's error or never again.
 */

/** Settles with `promise`, or fails naming `step` after 10 s: a hang reads as which step hung. */
function within<T>(promise: Promise<T>, step: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step}: no answer within 10 s`)), 10_000);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Opens a transaction on the client's one connection, runs `statement` in it after `pause`, and
 * terminates its backend once the transaction has begun; resolves with the transaction's error.
 */
async function killMidTransaction(
  sql: DbClient["sql"],
  admin: TestDatabase["sql"],
  pause: () => Promise<void>,
): Promise<{ error: unknown; backendPid: number }> {
  let backendPid: number | undefined;
  let started!: () => void;
  const inFlight = new Promise<void>((resolve) => {
    started = resolve;
  });
  const transaction = sql.begin(async (tx) => {
    const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
    backendPid = row!.pid;
    started();
    await pause();
    await tx`select pg_sleep(5)`;
  });
  // Observed from the start: the socket may close (and the transaction reject) before the
  // terminate query answers, and a rejection nobody listens to yet is reported as unhandled.
  const failure = transaction.then(
    () => new Error("the transaction committed"),
    (error: unknown) => error,
  );
  await within(inFlight, "begin");
  await admin`select pg_terminate_backend(${backendPid!})`;
  return { error: await within(failure, "the transaction's failure"), backendPid: backendPid! };
}
describe("postgres.js when a transaction's backend is terminated", () => {
  let t: TestDatabase;
  let client: DbClient;

  beforeAll(async () => {
    t = await createTestDatabase();
    // One connection, so every query after the kill runs on the connection that lost its backend.
    client = createDb(t.url, { max: 1 });
  });
  afterAll(async () => {
    await client?.close();
    await t?.drop();
  });

  it("rejects the transaction, then serves the next queries on a new backend", async () => {
    const { sql } = client;
    for (let round = 0; round < 3; round += 1) {
      const { error, backendPid } = await killMidTransaction(sql, t.sql, async () => {});
      expect(error).toMatchObject({ code: "CONNECTION_CLOSED" });
      const [next] = await within(sql<{ pid: number }[]>`select pg_backend_pid() as pid`, "next query");
      expect(next!.pid).not.toBe(backendPid);
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    }
  });

  // The statement and the backend's death cross: the socket errors, the transaction's ROLLBACK is
  // queued before the close, and unrepaired it stays queued into the reconnected connection, which
  // then answers the next query but is never handed out again (the next transaction hangs).
  it("fails a statement sent as the backend dies, and hands the connection out again", async () => {
    const { sql } = client;
    for (let round = 0; round < 12; round += 1) {
      const pause = () => new Promise<void>((resolve) => setTimeout(resolve, round % 4));
      const { error } = await killMidTransaction(sql, t.sql, pause);
      expect(error).toMatchObject({ code: "CONNECTION_CLOSED" });
      expect(await within(sql`select 1 as one`, "next query")).toEqual([{ one: 1 }]);
    }
  });
});
