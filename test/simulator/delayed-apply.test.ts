import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { createSimulatorApp } from "../../src/simulator/index.js";
import { Sim, START, waitFor } from "./harness.js";

/** Simulator-only: the delayed_apply fault holds a legacy write back on the simulator clock. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const DELAY_MS = 60_000;
const at = (offsetMs: number) => new Date(Date.parse(START) + offsetMs).toISOString();

async function holdNext(operation: string, delayMs = DELAY_MS): Promise<void> {
  const fault = await sim.post("/_sim/faults", {
    operation,
    kind: "delayed_apply",
    delay_ms: delayMs,
    times: 1,
  });
  expect(fault.status).toBe(201);
}

async function paymentsOf(orderId: string) {
  return (await sim.ledger()).payments.filter((payment) => payment.order_id === orderId);
}

describe("delayed_apply on GetnewPayment", () => {
  it.each([
    {
      moment: "just before the delay",
      card: "4111111111111111",
      offset: DELAY_MS - 1,
      status: undefined,
      reads: "not found",
    },
    {
      moment: "at the delay",
      card: "4111111111111111",
      offset: DELAY_MS,
      status: "SUCCESS",
      reads: "SUCCESS",
    },
    {
      moment: "after the delay",
      card: "4111111111111111",
      offset: DELAY_MS + 3_600_000,
      status: "SUCCESS",
      reads: "SUCCESS",
    },
    {
      moment: "at the delay, declining card",
      card: "4000000000000341",
      offset: DELAY_MS,
      status: "FAILURE",
      reads: "FAILURE",
    },
  ])("$moment: $card $reads", async ({ card, offset, status }) => {
    const { token } = await sim.enroll({ kind: "autosave", card });
    await holdNext("GetnewPayment");
    await expect(
      sim.legacy("GetnewPayment", { cardToken: token, orderId: "late", amount: "7.50" }),
    ).rejects.toThrow();
    expect((await sim.legacy("CheckStatus", { orderId: "late" })).body).toEqual({ result: 0 });

    sim.clock.advance({ milliseconds: offset });

    const check = (await sim.legacy("CheckStatus", { orderId: "late" })).body;
    const ledger = await paymentsOf("late");
    if (status === undefined) {
      expect(check).toEqual({ result: 0 });
      expect(ledger).toEqual([]);
      return;
    }
    expect(check.result).toBe(1);
    expect(check.payment).toMatchObject({ paymentstate: status, amount: "7.50", token });
    // Applied as of its due time, not as of the read that noticed it.
    expect(ledger).toMatchObject([
      { operation: "GetnewPayment", status, amount: "7.50", created_at: at(DELAY_MS) },
    ]);
  });

  it("applies held requests in due order, before the request that finds them due", async () => {
    const { token } = await sim.enroll({ kind: "recurring", card: "4000000000000002" });
    await holdNext("GetnewPayment", 2 * DELAY_MS);
    await expect(sim.legacy("GetnewPayment", { cardToken: token, orderId: "second" })).rejects.toThrow();
    await holdNext("GetnewPayment", DELAY_MS);
    await expect(sim.legacy("GetnewPayment", { cardToken: token, orderId: "first" })).rejects.toThrow();
    sim.clock.advance({ milliseconds: 3 * DELAY_MS });
    // 4000…0002 declines the first two collections, so the third (this one) is approved.
    const now = await sim.legacy("GetnewPayment", { cardToken: token, orderId: "third" });
    expect(now.body.result).toBe(1);
    const orders = (await sim.ledger()).payments
      .filter((payment) => payment.operation === "GetnewPayment")
      .map((payment) => [payment.order_id, payment.status, payment.created_at]);
    expect(orders).toEqual([
      ["first", "FAILURE", at(DELAY_MS)],
      ["second", "FAILURE", at(2 * DELAY_MS)],
      ["third", "SUCCESS", at(3 * DELAY_MS)],
    ]);
  });

  it("moving the clock through /_sim/clock applies what fell due", async () => {
    const { token } = await sim.enroll({ kind: "autosave" });
    await holdNext("GetnewPayment");
    await expect(
      sim.legacy("GetnewPayment", { cardToken: token, orderId: "o", amount: "1" }),
    ).rejects.toThrow();
    await sim.post("/_sim/clock", { advance: "PT1M" });
    expect(await paymentsOf("o")).toHaveLength(1);
  });

  it("a reset forgets held requests", async () => {
    const { token } = await sim.enroll({ kind: "autosave" });
    await holdNext("GetnewPayment");
    await expect(
      sim.legacy("GetnewPayment", { cardToken: token, orderId: "o", amount: "1" }),
    ).rejects.toThrow();
    await sim.reset();
    sim.clock.advance({ milliseconds: DELAY_MS });
    expect((await sim.ledger()).payments).toEqual([]);
  });
});

describe("delayed_apply on other legacy writes", () => {
  it("Refund: the payment reads as not refunded until the delay has passed", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "r" }));
    await holdNext("Refund");
    await expect(sim.legacy("Refund", { orderId: "r" })).rejects.toThrow();
    expect((await sim.legacy("CheckStatus", { orderId: "r" })).body.payment?.refundState).toBe(false);
    expect((await sim.ledger()).refunds).toEqual([]);
    sim.clock.advance({ milliseconds: DELAY_MS });
    expect((await sim.legacy("CheckStatus", { orderId: "r" })).body.payment).toMatchObject({
      refundState: true,
      refundstatus: "SUCCESS",
    });
    expect((await sim.ledger()).refunds).toMatchObject([{ order_id: "r", created_at: at(DELAY_MS) }]);
  });

  it("AddTransaction: the checkout and its PENDING payment appear only at the due time", async () => {
    await holdNext("AddTransaction");
    await expect(
      sim.legacy("AddTransaction", { orderId: "a", amount: "3", customerEmail: "c@d.qa" }),
    ).rejects.toThrow();
    expect((await sim.legacy("CheckStatus", { orderId: "a" })).body).toEqual({ result: 0 });
    sim.clock.advance({ milliseconds: DELAY_MS });
    expect((await sim.legacy("CheckStatus", { orderId: "a" })).body.payment?.paymentstate).toBe("PENDING");
    expect((await sim.ledger()).checkouts).toMatchObject([{ order_id: "a", opened_at: at(DELAY_MS) }]);
  });

  it("is refused for operations that read, naming the field", async () => {
    const response = await sim.post("/_sim/faults", { operation: "CheckStatus", kind: "delayed_apply" });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/^operation: delayed_apply applies only to AddTransaction/);
  });
});

describe("on a running clock", () => {
  it("a timer applies the held request when due, with no request to notice it", async () => {
    const { app, core } = createSimulatorApp({
      clock: new ControllableClock(START, { running: true }),
      seed: 1,
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const address = app.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const running = { url: `http://127.0.0.1:${port}`, key: core.merchants.defaultApiKey };
      const minted = await fetch(`${running.url}/_sim/tokens`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ count: 1, kind: "autosave" }),
      });
      const cardToken = ((await minted.json()) as { tokens: { card_token: string }[] }).tokens[0]!.card_token;
      await fetch(`${running.url}/_sim/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "GetnewPayment", kind: "delayed_apply", delay_ms: 150 }),
      });
      await expect(
        fetch(`${running.url}/v3/GetnewPayment`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token: running.key, cardToken, orderId: "t", amount: "2" }),
        }),
      ).rejects.toThrow();
      expect(core.payments.all()).toHaveLength(0);
      // Read in-process, not over HTTP: only the timer can have applied it.
      const payment = await waitFor(() => core.payments.all()[0]);
      expect(payment).toMatchObject({ orderId: "t", status: "SUCCESS", amountMinor: 200 });
    } finally {
      await app.close();
    }
  });
});
