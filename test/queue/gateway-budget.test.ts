import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type BudgetLimits,
  createGatewayBudget,
  createPostgresGatewayBudget,
  type SharedBudget,
} from "../../src/queue/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { REDIS_URL } from "../support/engine.js";

/**
 * The shared gateway budget, on the local Redis and on a fresh PostgreSQL database (queues on
 * PostgreSQL keep it there), by the same rules: each test under an account (and Redis prefix) of
 * its own, and two budgets with the same account are two worker processes (on one machine or two)
 * sharing it.
 */
const opened: SharedBudget[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((budget) => budget.close()));
});

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const LIMITS: BudgetLimits = {
  ratePerSecond: null,
  maxInFlight: null,
  windowMs: 1_000,
  leaseMs: 60_000,
  recoverMs: 10_000,
  // The whole window at once, so the log's own bound shows; the pacing is tested apart.
  burstMs: 1_000,
};

type Make = (account: string, limits: BudgetLimits) => SharedBudget;
const BACKENDS: [string, Make][] = [
  [
    "Redis",
    (account, limits) =>
      createGatewayBudget({ redisUrl: REDIS_URL, prefix: `t_${account}`, account, limits }),
  ],
  ["PostgreSQL", (account, limits) => createPostgresGatewayBudget({ sql: database.sql, account, limits })],
];

describe.each(BACKENDS)("the shared gateway budget on %s", (_name, make) => {
  function processes(count: number, limits: Partial<BudgetLimits>): SharedBudget[] {
    const account = randomBytes(5).toString("hex");
    const made = Array.from({ length: count }, () => make(account, { ...LIMITS, ...limits }));
    opened.push(...made);
    return made;
  }

  it("grants no more than the rate within the window, whoever asks", async () => {
    const [a, b] = processes(2, { ratePerSecond: 50 });
    expect(await a!.reserve(30, 1, 0)).toMatchObject({ granted: 30, waitMs: 0 });
    expect(await b!.reserve(30, 1, 0)).toMatchObject({ granted: 20, waitMs: 0 });
    const refused = await a!.reserve(10, 1, 0);
    expect(refused.granted).toBe(0);
    // The first reservation leaves the window a second after it was made.
    expect(refused.waitMs).toBeGreaterThan(900);
    expect(refused.waitMs).toBeLessThanOrEqual(1_000);
  });

  it("grants a wave whole or not at all below atLeast", async () => {
    const [a, b] = processes(2, { ratePerSecond: 50 });
    await a!.reserve(40, 1, 0);
    expect((await b!.reserve(32, 32, 0)).granted).toBe(0);
    expect((await b!.reserve(32, 5, 0)).granted).toBe(10);
  });

  it("keeps the calls open across processes under the cap, and frees them when handed back", async () => {
    const [a, b] = processes(2, { maxInFlight: 10 });
    expect((await a!.reserve(8, 1, 0)).granted).toBe(8);
    expect((await b!.reserve(5, 1, 0)).granted).toBe(2);
    expect((await b!.reserve(5, 1, 0)).granted).toBe(0);
    await a!.giveBack(6);
    // b hands back its 2 and asks again in one round trip.
    expect((await b!.reserve(10, 1, 2)).granted).toBe(8);
  });

  it("drops the share of a process that stopped calling once its lease runs out", async () => {
    const [dead, alive] = processes(2, { maxInFlight: 4, leaseMs: 300 });
    expect((await dead!.reserve(4, 1, 0)).granted).toBe(4);
    expect((await alive!.reserve(4, 1, 0)).granted).toBe(0);
    const deadline = Date.now() + 5_000;
    let granted = 0;
    while (granted === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      granted = (await alive!.reserve(4, 1, 0)).granted;
    }
    expect(granted).toBe(4);
  });

  it("halves the rate for everyone on a 429, then lets it climb back", async () => {
    const [a, b] = processes(2, { ratePerSecond: 40, recoverMs: 60_000 });
    expect(await a!.throttled()).toBe(20);
    // Recovery over a minute adds under one call in the next few ms: b sees about half.
    const granted = (await b!.reserve(40, 1, 0)).granted;
    expect(granted).toBeGreaterThanOrEqual(20);
    expect(granted).toBeLessThan(25);
    // A second 429 of the same burst does not halve it again.
    const again = await b!.throttled();
    expect(again).toBeGreaterThanOrEqual(20);
    expect(again).toBeLessThan(25);
  });

  it("paces the rate: a burst's worth at once, then as the bucket fills", async () => {
    const [a, b] = processes(2, { ratePerSecond: 100, burstMs: 100 });
    expect((await a!.reserve(50, 1, 0)).granted).toBe(10);
    const paced = await b!.reserve(50, 5, 0);
    expect(paced.granted).toBe(0);
    // 5 calls at 100 a second: about 50 ms.
    expect(paced.waitMs).toBeGreaterThan(30);
    expect(paced.waitMs).toBeLessThanOrEqual(50);
  });

  it("dates a reservation again when its calls go out", async () => {
    const [a] = processes(1, { ratePerSecond: 50, windowMs: 2_000, burstMs: 2_000 });
    const wave = await a!.reserve(50, 1, 0);
    expect(wave.granted).toBe(50);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await a!.sent([wave.id!]);
    // Dated when reserved, the wave would leave the window within 1.4 s; dated when sent, 2 s on
    // (less whatever a loaded machine takes between the two calls).
    expect((await a!.reserve(1, 1, 0)).waitMs).toBeGreaterThan(1_500);
  });
});
