import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbClient } from "../../src/db/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";

/**
 * The postgres.js 3.4.9 repair (scripts/patch-dependencies.mjs, run on install). Unrepaired, a
 * transaction whose backend is terminated mid-query makes the driver write its ROLLBACK to a null
 * socket from a setImmediate: an uncaught TypeError that fails this run, or, caught, a connection
 * that answers the next query with the dead backend's error or never again.
 */
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
      let backendPid: number | undefined;
      let started!: () => void;
      const inFlight = new Promise<void>((resolve) => {
        started = resolve;
      });
      const transaction = sql.begin(async (tx) => {
        const [row] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
        backendPid = row!.pid;
        started();
        await tx`select pg_sleep(5)`;
      });
      // Observed from the start: the socket may close (and the transaction reject) before the
      // terminate query answers, and a rejection nobody listens to yet is reported as unhandled.
      const failure = transaction.then(
        () => new Error("the transaction committed"),
        (error: unknown) => error,
      );
      await inFlight;
      await t.sql`select pg_terminate_backend(${backendPid!})`;

      expect(await failure).toMatchObject({ code: "CONNECTION_CLOSED" });
      const [next] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      expect(next!.pid).not.toBe(backendPid);
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    }
  });
});
