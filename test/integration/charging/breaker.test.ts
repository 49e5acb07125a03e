import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { breakerState, resumeCollection } from "../../../src/breaker/index.js";
import { processCharge, startChargeWorker } from "../../../src/charging/index.js";
import { events, invoices, paymentMethods } from "../../../src/db/schema/index.js";
import { createGatewayClient } from "../../../src/gateway/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  type CardSubscription,
  chargesOf,
  collections,
  createSubscription,
  eventually,
  replaceCard,
  subscriptionRow,
} from "./fixtures.js";

/**
 * The circuit breaker: when the gateway fails for a reason that is not about one card (it lost its
 * tokens, a wrong key), collection pauses for an operator instead of retiring every card, marking
 * every subscription unpaid and invoicing money that may have been taken.
 */
describe("the gateway circuit breaker", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    // One charge per job and one job at a time: the signals arrive one by one, as the count says.
    h = await createEngineHarness({ chargeBatchSize: 1 });
    h.ctx.config = { ...h.ctx.config, BREAKER_TOKEN_REFUSALS: 3, BREAKER_AUTH_REFUSALS: 2 };
  });
  afterEach(() => h?.close());

  /** The gateway no longer knows this card's token (as after it lost its state). */
  async function forgotten(sub: CardSubscription): Promise<void> {
    const sealed = h.ctx.vault.encrypt(randomUUID());
    await h.ctx.db
      .update(paymentMethods)
      .set({
        tokenCiphertext: sealed.ciphertext,
        tokenNonce: sealed.nonce,
        tokenTag: sealed.tag,
        tokenFingerprint: h.ctx.vault.fingerprint(randomUUID()),
      })
      .where(eq(paymentMethods.id, sub.paymentMethodId));
  }

  /** Every charge job has finished (paused jobs finish by sending nothing) and no call is open. */
  const settled = () =>
    eventually(async () => {
      const counts = await h.ctx.queues.queue("charges").getJobCounts("active", "waiting", "delayed");
      expect(counts).toEqual({ active: 0, waiting: 0, delayed: 0 });
      expect(await h.ctx.db.$client`select 1 from charges where status = 'processing'`).toHaveLength(0);
    }, 30_000);

  const statusesOf = async (subs: CardSubscription[]) =>
    (await Promise.all(subs.map(async (sub) => (await chargesOf(h, sub.subscriptionId))[0]?.status))).sort();

  it("pauses collection when many cards are refused with -7, holding them without condemning them", async () => {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < 8; i += 1) subs.push(await createSubscription(h));
    for (const sub of subs) await forgotten(sub);
    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 100 });

    await runBillingTick(h.ctx, { batchSize: 10 });
    await eventually(async () => expect((await breakerState(h.ctx.db.$client)).open).toBe(true));
    await settled();

    // Nobody is condemned: the refusals before the count was reached only wait to be asked again
    // (TOKEN_REFUSAL_CONFIRM_SECONDS), those after it are held; charges never sent stay scheduled.
    const statuses = await statusesOf(subs);
    expect(statuses.filter((s) => s !== "retrying" && s !== "scheduled")).toEqual([]);
    const usable = await h.ctx.db.select({ unusableAt: paymentMethods.unusableAt }).from(paymentMethods);
    expect(usable.filter((m) => m.unusableAt !== null)).toEqual([]);
    for (const sub of subs) {
      const row = await subscriptionRow(h, sub.subscriptionId);
      const [charge] = await chargesOf(h, sub.subscriptionId);
      if (charge!.status !== "uncollectible") expect(row.status).toBe("active");
    }
    const [opened] = await h.ctx.db.select().from(events).where(eq(events.type, "gateway.breaker_opened"));
    expect(opened!.data).toMatchObject({ signal: "token_refused", counts: { token_refused: 3 } });

    // While open: the tick does nothing, a charge job sends nothing.
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({
      paused: true,
      invoicesEnqueued: 0,
    });
    const heldIds: { sub: CardSubscription; charge: { id: string } }[] = [];
    for (const sub of subs) {
      const [charge] = await chargesOf(h, sub.subscriptionId);
      if (charge!.status !== "uncollectible") heldIds.push({ sub, charge: charge! });
    }
    expect(await processCharge(h.ctx, heldIds[0]!.charge.id)).toMatchObject({
      kind: "skipped",
      reason: "collection_paused",
    });
    expect(await h.ctx.db.select().from(invoices)).toHaveLength(0);

    // The operator fixes the cause (here: the customers' cards are known again) and resumes.
    for (const { sub } of heldIds) await replaceCard(h, sub);
    expect(await resumeCollection(h.ctx, { actor: "cli", note: "gateway restored" })).toMatchObject({
      resumed: true,
    });
    // The cards refused once are asked again when their wait is over.
    h.clock.advance({ seconds: h.ctx.config.TOKEN_REFUSAL_CONFIRM_SECONDS });
    await runBillingTick(h.ctx, { batchSize: 10 });
    for (const { sub } of heldIds) {
      await eventually(async () =>
        expect((await chargesOf(h, sub.subscriptionId))[0]).toMatchObject({ status: "paid" }),
      );
    }
    expect((await breakerState(h.ctx.db.$client)).open).toBe(false);
  });

  it("pauses on authentication refusals (a wrong API key) and sends nothing more until resumed", async () => {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < 4; i += 1) subs.push(await createSubscription(h));
    h.ctx.gateway = createGatewayClient({
      baseUrl: h.sim.url,
      legacyUrl: h.sim.url,
      apiKey: randomUUID(), // a GUID that names no merchant: -1
      timeoutMs: 2000,
      clock: h.clock,
      logger: h.ctx.logger,
    });
    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 100 });

    await runBillingTick(h.ctx, { batchSize: 10 });
    await eventually(async () =>
      expect(await breakerState(h.ctx.db.$client)).toMatchObject({ open: true, signal: "auth_refused" }),
    );
    await settled();
    const statuses = await statusesOf(subs);
    // -1 is about our key, never a charge: every refused attempt is released and waits, due.
    expect(statuses.filter((s) => s !== "retrying" && s !== "scheduled")).toEqual([]);
    for (const sub of subs) expect(await collections(h, sub.cardToken)).toEqual([]);
  });
});
