import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { leaseCutoff } from "../../../src/scheduler/hand-out.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { tickWork } from "../../../src/scheduler/tick-work.js";
import { askForWork } from "../../../src/scheduler/work-probe.js";
import { countingStatements } from "../../support/counted.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { createSubscription } from "./fixtures.js";

/**
 * The tick asks PostgreSQL once which sweeps have work, and runs only those: an idle tick sends one
 * statement, and work that is there is still found by the sweep it belongs to.
 */
describe("the tick's one question", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness();
  });
  afterEach(() => h?.close());

  const ask = (sql = h.ctx.db.$client) =>
    askForWork(
      sql,
      tickWork(sql, {
        now: h.clock.now(),
        cutoff: leaseCutoff(sql, h.ctx.config.CHARGE_REDISPATCH_AFTER_SECONDS),
        stuckAfterMs: 60_000,
        refundQuietPeriodMs: 60_000,
        enrollmentPendingHours: 24,
      }),
      leaseCutoff(sql, h.ctx.config.CHARGE_REDISPATCH_AFTER_SECONDS),
    );

  it("sends one statement when no sweep has work", async () => {
    const { ctx, count } = countingStatements(h);
    await runBillingTick(ctx); // the first also runs the hourly usage upkeep
    count.statements = 0;

    const result = await runBillingTick(ctx);

    expect(count.statements).toBe(1);
    expect(result).toMatchObject({ chargesCreated: 0, chargesEnqueued: 0, paused: false });
  });

  it("answers no for every sweep of an empty database, and yes for due billing", async () => {
    const idle = await ask();
    expect(Object.entries(idle.has).filter(([, yes]) => yes)).toEqual([]);
    expect(idle.cutoff).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);

    await createSubscription(h);
    const due = await ask();
    expect(Object.entries(due.has).filter(([, yes]) => yes)).toEqual([["billing", true]]);
  });

  it("still bills and hands out what is due, and the next tick finds it handed out", async () => {
    await createSubscription(h);
    await createSubscription(h);

    expect(await runBillingTick(h.ctx)).toMatchObject({ chargesCreated: 2, chargesEnqueued: 2 });
    // The jobs wait in the queue within their lease: nothing is left to do.
    expect(Object.values((await ask()).has).some(Boolean)).toBe(false);
    expect(await runBillingTick(h.ctx)).toMatchObject({ chargesCreated: 0, chargesEnqueued: 0 });
  });
});
