import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim } from "./harness.js";

/** "Limits": token lifetime, the refund windows, settlement, and the redirect delay. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe("card token lifetime", () => {
  it("six months from issue", async () => {
    const { token } = await sim.enroll({ kind: "autosave" });
    const [entry] = (await sim.ledger()).tokens;
    expect(entry).toMatchObject({
      issued_at: "2025-03-10T08:00:00.000Z",
      expires_at: "2025-09-10T08:00:00.000Z",
    });
    sim.clock.set("2025-09-10T08:00:00Z");
    expect((await sim.legacy("GetnewPayment", { cardToken: token, orderId: "x", amount: "1" })).body).toEqual(
      {
        result: -7,
      },
    );
  });

  it("or until the end of the card's expiry month, whichever is first", async () => {
    await sim.enroll({ expiry: "06/25" });
    expect((await sim.ledger()).tokens[0]?.expires_at).toBe("2025-07-01T00:00:00.000Z");
  });

  it("or until deactivated", async () => {
    const { token } = await sim.enroll();
    await sim.legacy("StopRecurring", { cardToken: token });
    expect((await sim.ledger()).tokens[0]?.status).toBe("deactivated");
  });
});

describe("settlement at the daily 20:00 GMT cutoff", () => {
  it("a payment settles at the first cutoff after it", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "morning" }));
    sim.clock.set("2025-03-10T20:30:00Z");
    await sim.pay(await sim.addTransaction({ orderId: "evening" }));
    const [morning, evening] = (await sim.ledger()).payments;
    expect(morning).toMatchObject({ settles_at: "2025-03-10T20:00:00.000Z", settled: true });
    expect(evening).toMatchObject({ settles_at: "2025-03-11T20:00:00.000Z", settled: false });
  });

  it("the cutoff is a merchant setting; null means payments never settle", async () => {
    await sim.configure({ settlement_cutoff: "09:30" });
    await sim.pay(await sim.addTransaction({ orderId: "a" }));
    await sim.configure({ settlement_cutoff: null });
    await sim.pay(await sim.addTransaction({ orderId: "b" }));
    const [a, b] = (await sim.ledger()).payments;
    expect(a?.settles_at).toBe("2025-03-10T09:30:00.000Z");
    expect(b?.settles_at).toBeNull();
  });
});

describe("direct refund window (legacy): 24 hours from payment and unsettled", () => {
  it("SUCCESS until the payment settles, Processing from the cutoff on", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "a" }));
    await sim.pay(await sim.addTransaction({ orderId: "b" }));
    sim.clock.set("2025-03-10T19:59:59.999Z");
    expect((await sim.legacy("Refund", { orderId: "a" })).body.refundState).toBe("SUCCESS");
    sim.clock.set("2025-03-10T20:00:00Z");
    expect((await sim.legacy("Refund", { orderId: "b" })).body.refundState).toBe("Processing");
  });

  it("without settlement, SUCCESS for just under 24 hours, then Processing", async () => {
    await sim.configure({ settlement_cutoff: null });
    await sim.pay(await sim.addTransaction({ orderId: "a" }));
    await sim.pay(await sim.addTransaction({ orderId: "b" }));
    sim.clock.set("2025-03-11T07:59:59.999Z");
    expect((await sim.legacy("Refund", { orderId: "a" })).body.refundState).toBe("SUCCESS");
    sim.clock.set("2025-03-11T08:00:00Z");
    expect((await sim.legacy("Refund", { orderId: "b" })).body.refundState).toBe("Processing");
  });
});

describe("direct refund window (v1): before midnight GMT and unsettled", () => {
  async function paidAt(instant: string, orderId: string) {
    sim.clock.set(instant);
    await sim.pay(await sim.checkout({ order_id: orderId }));
    const payment = (await sim.ledger()).payments.find((entry) => entry.order_id === orderId)!;
    return { transaction_id: payment.transaction_id, order_id: orderId };
  }

  it("a payment after the cutoff: completed until midnight, under_processing from midnight", async () => {
    const a = await paidAt("2025-03-10T21:00:00Z", "a");
    const b = await paidAt("2025-03-10T21:00:00Z", "b");
    sim.clock.set("2025-03-10T23:59:59.999Z");
    expect((await sim.v1("/v1/payments/refund", a)).body.result?.refund_status).toBe("completed");
    sim.clock.set("2025-03-11T00:00:00Z");
    expect((await sim.v1("/v1/payments/refund", b)).body.result?.refund_status).toBe("under_processing");
  });

  it("a payment before the cutoff: under_processing once settled, before midnight", async () => {
    const a = await paidAt("2025-03-10T10:00:00Z", "a");
    sim.clock.set("2025-03-10T20:00:00Z");
    expect((await sim.v1("/v1/payments/refund", a)).body.result?.refund_status).toBe("under_processing");
  });
});

describe("redirect delay", () => {
  it("is 2 seconds", async () => {
    const url = await sim.checkout({ success_url: "http://merchant.example/ok" });
    await sim.pay(url);
    const page = await sim.get(new URL(url).pathname);
    expect(page.text).toMatch(/content="2;url=http:\/\/merchant\.example\/ok\?/);
    expect(page.text).toMatch(/\},2000\);<\/script>/);
  });
});
