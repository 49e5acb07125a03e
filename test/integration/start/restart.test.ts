import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, describe, expect, it } from "vitest";
import { chargeAttempts, charges, invoices, subscriptions } from "../../../src/db/schema/index.js";
import { findFreePort } from "../../../src/infra/index.js";
import { silentLogger } from "../../../src/logger/index.js";
import { createPlan } from "../../../src/plans/index.js";
import { TimeMachine } from "../../../src/runtime/demo/time-machine.js";
import { SIMULATOR_STATE_FILE } from "../../../src/runtime/in-process-gateway.js";
import { type EngineProcess, startEngineProcess } from "../../../src/runtime/index.js";
import { CARDS, enrollWithCard, freshDataDir } from "./support.js";

/**
 * Zero-config survives a restart: the engine with nothing configured (embedded PostgreSQL, BullMQ
 * on it, the simulator in-process, the development token key) is stopped and started again on the
 * same data directory. A card saved before the restart is still charged after it, since the
 * simulator keeps its state in `<data dir>/gateway-sim.json`, and an invoice made after it gets a
 * gateway id the engine has not seen (`invoices_gateway_invoice_key`).
 */

const START_ISO = "2026-01-05T06:00:00.000Z";
const START = DateTime.fromISO(START_ISO);

let dataDir: string | undefined;
let engine: EngineProcess | undefined;

afterAll(async () => {
  await engine?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(dir: string): Promise<EngineProcess> {
  engine = await startEngineProcess({
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BILLING_DATA_DIR: dir,
      // Free ports of their own: suites running in parallel would race for the defaults.
      EMBEDDED_POSTGRES_PORT: String(await findFreePort()),
      GATEWAY_SIM_PORT: "0",
      BILLING_CLOCK_START: START_ISO,
      DUNNING_RETRY_DAYS: "1",
      PORT: "0",
      HOST: "127.0.0.1",
      QUEUE_BACKOFF_MS: "200",
    },
    logger: silentLogger,
    // The test runs the billing tick itself, right after each move of the clock.
    parts: { http: true, scheduler: false, workers: true },
  });
  return engine;
}

/** Moves the clock to every instant the engine has work due up to `end`, letting the workers finish. */
async function runUntil(time: TimeMachine, end: DateTime): Promise<void> {
  await time.settle();
  for (let due = await time.nextDue(); due && due <= end; due = await time.nextDue()) {
    await time.moveTo(due);
    await time.settle();
  }
  await time.moveTo(end);
}

async function invoiceOf(running: EngineProcess, subscriptionId: string) {
  const rows = await running.ctx.db
    .select({ status: invoices.status, gatewayInvoiceId: invoices.gatewayInvoiceId })
    .from(invoices)
    .innerJoin(charges, eq(charges.id, invoices.chargeId))
    .where(eq(charges.subscriptionId, subscriptionId));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe("restarting the zero-config engine", () => {
  it("keeps the simulator's cards and invoice ids: renewals are paid, new invoices get fresh ids", async () => {
    dataDir = await freshDataDir("billing-restart-");
    const first = await start(dataDir);
    const plan = await createPlan(
      first.ctx,
      { name: "Pro", amount: "99.00", currency: "QAR", interval: "month" },
      { actor: "test" },
    );
    const payer = await enrollWithCard(
      first.ctx,
      first.simulator!,
      plan.id,
      "payer@example.qa",
      CARDS.approves,
    );
    const before = await enrollWithCard(
      first.ctx,
      first.simulator!,
      plan.id,
      "before@example.qa",
      CARDS.alwaysDeclines,
    );
    // First charges: the payer pays, the other declines, is retried a day later, and is invoiced.
    await runUntil(new TimeMachine(first.ctx), START.plus({ days: 2 }));
    const firstInvoice = await invoiceOf(first, before.subscriptionId);
    expect(firstInvoice).toMatchObject({ status: "created" });
    const apiKey = first.simulator!.defaultApiKey;
    await first.close();
    expect(JSON.parse(await readFile(path.join(dataDir, SIMULATOR_STATE_FILE), "utf8"))).toMatchObject({
      merchants: { defaultApiKey: apiKey },
    });

    const second = await start(dataDir);
    expect(second.simulator!.defaultApiKey).toBe(apiKey);
    const after = await enrollWithCard(
      second.ctx,
      second.simulator!,
      plan.id,
      "after@example.qa",
      CARDS.alwaysDeclines,
    );
    // The payer's renewal a month on, on the card saved before the restart; the newcomer declines
    // twice and is invoiced after the restart.
    await runUntil(new TimeMachine(second.ctx), START.plus({ months: 1, days: 1 }));

    const payerCharges = await second.ctx.db
      .select({ status: charges.status })
      .from(charges)
      .where(eq(charges.subscriptionId, payer.subscriptionId));
    expect(payerCharges.map((charge) => charge.status)).toEqual(["paid", "paid"]);
    const [payerSubscription] = await second.ctx.db
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.id, payer.subscriptionId));
    expect(payerSubscription!.status).toBe("active");
    const refusals = await second.ctx.db
      .select({ id: chargeAttempts.id })
      .from(chargeAttempts)
      .innerJoin(charges, eq(charges.id, chargeAttempts.chargeId))
      .where(inArray(chargeAttempts.declineCode, ["-7"]));
    expect(refusals).toEqual([]);

    const secondInvoice = await invoiceOf(second, after.subscriptionId);
    expect(secondInvoice.status).toBe("created");
    expect(secondInvoice.gatewayInvoiceId).toBeGreaterThan(firstInvoice.gatewayInvoiceId!);
    await second.close();

    // Without its state file the simulator forgets its cards, but still hands out no invoice id
    // the engine holds.
    await rm(path.join(dataDir, SIMULATOR_STATE_FILE));
    const third = await start(dataDir);
    const forgotten = await enrollWithCard(
      third.ctx,
      third.simulator!,
      plan.id,
      "forgotten@example.qa",
      CARDS.alwaysDeclines,
    );
    await runUntil(new TimeMachine(third.ctx), START.plus({ months: 1, days: 3 }));
    const thirdInvoice = await invoiceOf(third, forgotten.subscriptionId);
    expect(thirdInvoice.status).toBe("created");
    expect(thirdInvoice.gatewayInvoiceId).toBeGreaterThan(secondInvoice.gatewayInvoiceId!);
  }, 180_000);
});
