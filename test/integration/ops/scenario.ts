import { vi } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { startInvoiceWorker } from "../../../src/invoicing/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import type { EngineHarness } from "../../support/engine.js";
import { CARDS, type CardSubscription, createSubscription } from "../charging/fixtures.js";

/**
 * A month of billing through the simulator, for the ops dashboard's tests: subscriptions whose
 * cards approve, decline twice and then pay (recovered by dunning), or always decline (invoiced
 * once dunning ends), billed day by day by the real tick and workers; then one charge held for
 * review, made by a GetnewPayment whose reply is lost while CheckStatus keeps failing.
 */

export interface BillingMonth {
  approved: CardSubscription[];
  recovered: CardSubscription[];
  invoiced: CardSubscription[];
  held: CardSubscription;
  heldChargeId: string;
}

export const SCENARIO = { approves: 4, declinesTwice: 3, alwaysDeclines: 2 } as const;

/** Work the workers have not finished: charges being collected or due, invoices not created. */
async function busy(h: EngineHarness): Promise<number> {
  const [row] = await h.ctx.db.$client<{ n: number }[]>`
    select (select count(*) from charges
              where status = 'processing'
                 or (status in ('scheduled', 'retrying') and next_attempt_at <= ${h.clock.now().toISO()}::timestamptz))
         + (select count(*) from charges c where c.status = 'uncollectible'
              and not exists (select 1 from invoices i where i.charge_id = c.id and i.status <> 'pending')) as n`;
  return Number(row?.n ?? 0);
}

async function settle(h: EngineHarness): Promise<void> {
  await runBillingTick(h.ctx, { batchSize: 50 });
  await vi.waitFor(
    async () => {
      if ((await busy(h)) > 0) throw new Error("the workers still have due work");
    },
    { timeout: 30_000, interval: 25 },
  );
}

/**
 * Needs a harness with RECONCILE_MAX_TRIES 3; the held charge waits out one gateway timeout, so a
 * timeout of a second or two (not the default) keeps it quick while a loaded machine still answers.
 */
export async function billAMonth(h: EngineHarness): Promise<BillingMonth> {
  startChargeWorker(h.ctx, { concurrency: 4, ratePerSecond: 200 });
  startInvoiceWorker(h.ctx);
  const make = (n: number, card: string) =>
    Promise.all(Array.from({ length: n }, () => createSubscription(h, { card })));
  const approved = await make(SCENARIO.approves, CARDS.approves);
  const recovered = await make(SCENARIO.declinesTwice, CARDS.declinedTwiceThenApproved);
  const invoiced = await make(SCENARIO.alwaysDeclines, CARDS.alwaysDeclined);
  for (let day = 0; day < 30; day++) {
    await settle(h);
    h.clock.advance({ days: 1 });
  }

  const held = await createSubscription(h, { card: CARDS.approves });
  await h.simAdmin("POST", "/_sim/faults", { operation: "GetnewPayment", kind: "apply_then_drop", times: 1 });
  await h.simAdmin("POST", "/_sim/faults", { operation: "CheckStatus", kind: "error5xx" });
  await runBillingTick(h.ctx, { batchSize: 50 });
  const heldChargeId = await vi.waitFor(
    async () => {
      const [row] = await h.ctx.db.$client<{ id: string }[]>`
        select id from charges where subscription_id = ${held.subscriptionId} and status = 'needs_review'`;
      if (!row) throw new Error("the charge is not held yet");
      return row.id;
    },
    { timeout: 30_000, interval: 25 },
  );
  await h.simAdmin("DELETE", "/_sim/faults");
  return { approved, recovered, invoiced, held, heldChargeId };
}
