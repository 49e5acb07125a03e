import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { attemptsOf, chargesOf, collections, createSubscription, onlyCharge } from "./fixtures.js";

const CRASH_WORKER = fileURLToPath(new URL("./crash-worker.ts", import.meta.url));

interface ChildRun {
  signal: NodeJS.Signals | null;
  code: number | null;
  steps: Record<string, unknown>[];
  stderr: string;
}

/** Runs crash-worker.ts in its own Node process and waits until it is dead. */
function runCrashWorker(h: EngineHarness, chargeId: string, crashAt: "before_call" | "after_reply") {
  const child = spawn(process.execPath, ["--import", "tsx", CRASH_WORKER], {
    env: {
      ...process.env,
      CRASH_DATABASE_URL: h.database.url,
      CRASH_GATEWAY_URL: h.sim.url,
      CRASH_API_KEY: h.sim.defaultApiKey,
      CRASH_TOKEN_KEY: h.ctx.config.TOKEN_ENCRYPTION_KEY,
      CRASH_NOW: h.clock.now().toISO()!,
      CRASH_CHARGE_ID: chargeId,
      CRASH_AT: crashAt,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise<ChildRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stderr,
        steps: stdout
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => JSON.parse(line)),
      }),
    );
  });
}

/**
 * A worker process killed (SIGKILL) after its attempt was committed and before its outcome was
 * recorded. The restarted engine must find the charge, reconcile the attempt with CheckStatus, and
 * end with exactly one payment at the gateway.
 */
describe("a worker killed mid-charge", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness();
  });
  afterEach(() => h?.close());

  async function chargeDueNow() {
    const sub = await createSubscription(h);
    // The tick creates the charge and enqueues its job; no worker runs in this process yet.
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 1 });
    const [charge] = await chargesOf(h, sub.subscriptionId);
    return { sub, charge: charge! };
  }

  it("after the gateway took the payment: reconciled as paid, never charged again", async () => {
    const { sub, charge } = await chargeDueNow();

    const child = await runCrashWorker(h, charge.id, "after_reply");
    expect(child.stderr).toBe("");
    expect(child.signal).toBe("SIGKILL");
    expect(child.steps).toEqual([
      { step: "attempt_recorded", orderId: `chg_${charge.id}_1` },
      { step: "gateway_replied", outcome: "approved" },
    ]);
    expect((await chargesOf(h, sub.subscriptionId))[0]!.status).toBe("processing");
    expect(await attemptsOf(h, charge.id)).toMatchObject([{ status: "in_flight" }]);
    expect(await collections(h, sub.cardToken)).toHaveLength(1);

    // Restart: the charge job from the tick is still queued; a fresh worker takes it (past the
    // quiet period: the dead process's call cannot be running any more).
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100, quietPeriodMs: 0 });
    await onlyCharge(h, sub.subscriptionId, { status: "paid" });

    const ledger = await collections(h, sub.cardToken);
    expect(ledger).toHaveLength(1);
    const attempts = await attemptsOf(h, charge.id);
    expect(attempts).toMatchObject([{ status: "approved", gatewayTransactionId: ledger[0]!.transaction_id }]);
    expect((await chargesOf(h, sub.subscriptionId))[0]!.paidTransactionId).toBe(ledger[0]!.transaction_id);
  });

  it("before the call went out: found not charged, then charged once with a new attempt", async () => {
    const { sub, charge } = await chargeDueNow();

    const child = await runCrashWorker(h, charge.id, "before_call");
    expect(child.signal).toBe("SIGKILL");
    expect(child.steps).toEqual([{ step: "attempt_recorded", orderId: `chg_${charge.id}_1` }]);
    expect(await collections(h, sub.cardToken)).toHaveLength(0);

    // Restart after a Redis loss as well: only Postgres knows; the tick finds the stuck charge.
    await h.ctx.queues.obliterate();
    expect(await runBillingTick(h.ctx, { batchSize: 10, stuckAfterMs: 0 })).toMatchObject({ reenqueued: 1 });
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100, quietPeriodMs: 0 });
    await onlyCharge(h, sub.subscriptionId, { status: "paid" });

    const attempts = await attemptsOf(h, charge.id);
    expect(attempts.map((a) => [a.orderId, a.status])).toEqual([
      [`chg_${charge.id}_1`, "failed_permanently"],
      [`chg_${charge.id}_2`, "approved"],
    ]);
    const ledger = await collections(h, sub.cardToken);
    expect(ledger.map((p) => p.order_id)).toEqual([`chg_${charge.id}_2`]);
  });
});
