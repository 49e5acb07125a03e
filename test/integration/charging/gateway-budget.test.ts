import { afterEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import type { BillingWorker } from "../../../src/queue/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { type CardSubscription, chargesOf, collections, createSubscription, eventually } from "./fixtures.js";

/**
 * The gateway's rate limit, through the simulator (a strict 1-second sliding window per merchant,
 * answering 429 past it): with the deployment's shared budget, two worker processes together never
 * pass it; without one, its 429s slow the worker down and every charge is still paid exactly once.
 */
let h: EngineHarness | undefined;
const workers: BillingWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
  await h?.close();
  h = undefined;
});

async function subscriptions(engine: EngineHarness, count: number): Promise<CardSubscription[]> {
  const made: CardSubscription[] = [];
  for (let i = 0; i < count; i += 1) made.push(await createSubscription(engine, { amountMinor: 10_000 }));
  return made;
}

/** Ticks until every subscription's one charge is paid (a tick hands out what is due again). */
async function allPaid(engine: EngineHarness, subs: readonly CardSubscription[]) {
  await eventually(async () => {
    await runBillingTick(engine.ctx, { batchSize: 500 });
    const statuses = await Promise.all(
      subs.map(async (sub) => (await chargesOf(engine, sub.subscriptionId))[0]?.status),
    );
    expect(statuses.filter((status) => status !== "paid")).toEqual([]);
  }, 60_000);
}

/** Every card was charged once: one payment per subscription in the simulator's ledger. */
async function eachPaidOnce(engine: EngineHarness, subs: readonly CardSubscription[]) {
  const counts = await Promise.all(
    subs.map(async (sub) => (await collections(engine, sub.cardToken)).length),
  );
  expect(counts.every((count) => count === 1)).toBe(true);
}

/**
 * Limits the simulator's merchant from now on. Its window is real time and still holds the setup's
 * calls (saving each card), so the test waits that one second out before the engine calls.
 */
async function limitGateway(engine: EngineHarness, perSecond: number) {
  await engine.simAdmin("PATCH", `/_sim/merchants/${engine.sim.defaultApiKey}`, {
    rate_limit_per_second: perSecond,
  });
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  engine.sim.resetRateCounters();
}

/** Two workers sharing a budget of 20 calls a second charge 60 cards: within it, once each. */
async function twoWorkersUnderTheLimit(engine: EngineHarness) {
  const subs = await subscriptions(engine, 60);
  await limitGateway(engine, 20);
  for (let i = 0; i < 2; i += 1) {
    workers.push(startChargeWorker(engine.ctx, { concurrency: 4, ratePerSecond: 1_000 }));
  }
  await allPaid(engine, subs);
  const counters = engine.sim.rateCounters();
  expect(counters).toMatchObject({ accepted: 60, refused: 0 });
  expect(counters.maxInWindow).toBeLessThanOrEqual(20);
  await eachPaidOnce(engine, subs);
}

const BUDGET = { GATEWAY_RATE_PER_SECOND: "20", GATEWAY_MAX_IN_FLIGHT: "8" };

describe("the gateway's rate limit", () => {
  it("is never passed by two workers sharing the deployment's budget", async () => {
    h = await createEngineHarness({ env: BUDGET });
    await twoWorkersUnderTheLimit(h);
  });

  // With queues on PostgreSQL there is no REDIS_URL, and the budget lives in PostgreSQL (this
  // harness still hands out its jobs through Redis; only the budget's home is under test).
  it("is never passed by two workers sharing a budget kept in PostgreSQL", async () => {
    h = await createEngineHarness({ env: { ...BUDGET, REDIS_URL: "" } });
    expect(h.ctx.config.REDIS_URL).toBeUndefined();
    await twoWorkersUnderTheLimit(h);
    const [budget] = await h.database.sql<{ seq: string }[]>`select seq from gateway_budgets`;
    expect(Number(budget?.seq)).toBeGreaterThan(0);
  });

  it("slows a worker without a shared budget down on 429s, and still charges each card once", async () => {
    const engine = await createEngineHarness();
    h = engine;
    const subs = await subscriptions(engine, 40);
    await limitGateway(engine, 10);
    workers.push(startChargeWorker(engine.ctx, { concurrency: 4, ratePerSecond: 1_000 }));
    await allPaid(engine, subs);
    const counters = engine.sim.rateCounters();
    expect(counters.refused).toBeGreaterThan(0);
    expect(counters.accepted).toBe(40);
    await eachPaidOnce(engine, subs);
  });
});
