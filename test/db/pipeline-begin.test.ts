import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/db.js";

/**
 * porsager/postgres#1189, repaired by patches/postgres+3.4.9.patch as PR #1218 does: a BEGIN the
 * pool queues on a busy connection, filling its pipeline, must still reserve that connection.
 * Unrepaired, sql.begin() rejected with UNSAFE_TRANSACTION while the server stayed inside the
 * transaction, and later pool queries ran in it. max_pipeline is 2 here so that five queries reach
 * the state the default (100 a connection) reaches under load.
 */
describe("postgres.js when BEGIN fills a busy connection's pipeline", () => {
  let t: TestDatabase;
  let pool: postgres.Sql;

  beforeAll(async () => {
    t = await createTestDatabase();
    // max_pipeline is a real option the typings leave out.
    const pipeline: object = { max_pipeline: 2 };
    pool = postgres(t.url, { max: 2, onnotice: () => undefined, ...pipeline });
  });
  afterAll(async () => {
    await pool?.end({ timeout: 1 });
    await t?.drop();
  });

  it("runs the transaction on its own connection, and leaves none open behind it", async () => {
    await Promise.all([pool`select 1`, pool`select 1`]);
    // Each connection: one query running and one pipelined behind it; BEGIN comes next.
    const busy = [1, 2, 3, 4].map(() => pool`select pg_sleep(0.3)`.execute());
    const inside = pool.begin(async (tx) => (await tx<{ x: string }[]>`select 'in tx' as x`)[0]!.x);
    await Promise.all(busy);
    expect(await inside).toBe("in tx");

    // Later pool queries each run in a transaction of their own, not in one left open.
    const xids = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      const [row] = await pool<{ x: string }[]>`select txid_current()::text as x`;
      xids.add(row!.x);
    }
    expect(xids.size).toBe(6);
    const open = await t.sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state = 'idle in transaction'`;
    expect(open[0]!.n).toBe(0);
  });
});
