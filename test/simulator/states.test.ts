import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Sim } from "./harness.js";

/** "States and transitions": payments, refunds, card tokens and isVoid payments. */
let sim: Sim;
beforeAll(async () => {
  sim = await Sim.start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe("Payment", () => {
  it("is PENDING from checkout creation until the card is submitted", async () => {
    await sim.addTransaction({ orderId: "p" });
    const { body } = await sim.legacy("CheckStatus", { orderId: "p" });
    expect(body.payment).toMatchObject({ paymentstate: "PENDING", auth: "", token: null });
    expect((await sim.ledger()).payments).toEqual([]);
  });

  it("checkout opened → SUCCESS, with a token only when saving was asked", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "once" }));
    const once = await sim.legacy("CheckStatus", { orderId: "once" });
    expect(once.body.payment).toMatchObject({ paymentstate: "SUCCESS", token: null });
    await sim.pay(await sim.addTransaction({ orderId: "saved", autoSave: "yes" }));
    const saved = await sim.legacy("CheckStatus", { orderId: "saved" });
    expect(saved.body.payment?.paymentstate).toBe("SUCCESS");
    expect(saved.body.payment?.token).toEqual(expect.any(String));
  });

  it("checkout opened → FAILURE with a description, and no token", async () => {
    const paid = await sim.pay(await sim.addTransaction({ orderId: "f", isRecurring: true }), { cvv: "999" });
    expect(paid.body.status).toBe("FAILURE");
    const { body } = await sim.legacy("CheckStatus", { orderId: "f" });
    expect(body.payment).toMatchObject({
      paymentstate: "FAILURE",
      description: "Invalid CVV",
      token: null,
      auth: "",
    });
    expect((await sim.ledger()).tokens).toEqual([]);
  });

  it("is processed once: a second submission finds it finished", async () => {
    const url = await sim.addTransaction();
    await sim.pay(url);
    const again = await sim.pay(url, { cvv: "999" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: "SUCCESS" });
    expect((await sim.ledger()).payments).toHaveLength(1);
  });
});

describe("Refund", () => {
  it("paid payment → SUCCESS while unsettled, Processing once settled (legacy)", async () => {
    await sim.pay(await sim.addTransaction({ orderId: "a" }));
    await sim.pay(await sim.addTransaction({ orderId: "b" }));
    expect((await sim.legacy("Refund", { orderId: "a" })).body.refundState).toBe("SUCCESS");
    sim.clock.set("2025-03-10T20:00:00Z");
    expect((await sim.legacy("Refund", { orderId: "b" })).body.refundState).toBe("Processing");
    const status = await sim.legacy("CheckStatus", { orderId: "b" });
    expect(status.body.payment).toMatchObject({ refundState: true, refundstatus: "Processing" });
  });

  it("paid payment → completed while unsettled, under_processing once settled (v1)", async () => {
    await sim.pay(await sim.checkout({ order_id: "a" }));
    await sim.pay(await sim.checkout({ order_id: "b" }));
    const [a, b] = (await sim.ledger()).payments;
    const first = await sim.v1("/v1/payments/refund", { transaction_id: a?.transaction_id, order_id: "a" });
    expect(first.body.result?.refund_status).toBe("completed");
    sim.clock.set("2025-03-10T20:00:00Z");
    const second = await sim.v1("/v1/payments/refund", { transaction_id: b?.transaction_id, order_id: "b" });
    expect(second.body.result?.refund_status).toBe("under_processing");
  });
});

describe("Card token", () => {
  it("active → expired after six months", async () => {
    const { token } = await sim.enroll();
    sim.clock.set("2025-09-10T07:59:59.999Z");
    expect((await sim.legacy("GetnewPayment", { cardToken: token })).body.result).toBe(1);
    sim.clock.set("2025-09-10T08:00:00Z");
    expect((await sim.legacy("GetnewPayment", { cardToken: token })).body).toEqual({ result: -7 });
    expect((await sim.ledger()).tokens[0]?.status).toBe("expired");
  });

  it("active → expired when the client card expires", async () => {
    const { token } = await sim.enroll({ expiry: "04/25" });
    sim.clock.set("2025-04-30T23:59:59Z");
    expect((await sim.legacy("GetnewPayment", { cardToken: token })).body.result).toBe(1);
    sim.clock.set("2025-05-01T00:00:00Z");
    expect((await sim.legacy("GetnewPayment", { cardToken: token })).body).toEqual({ result: -7 });
  });

  it("deactivate → only that token expires; the client's other tokens stay valid", async () => {
    const first = await sim.enroll();
    const second = await sim.enroll();
    expect((await sim.legacy("StopRecurring", { cardToken: first.token })).body).toEqual({ result: 1 });
    expect((await sim.legacy("GetnewPayment", { cardToken: first.token })).body).toEqual({ result: -7 });
    expect((await sim.legacy("GetnewPayment", { cardToken: second.token })).body.result).toBe(1);
    const tokens = (await sim.ledger()).tokens;
    expect(tokens.map((token) => token.status)).toEqual(["deactivated", "active"]);
  });
});

describe("Payment with isVoid", () => {
  it("SUCCESS → refunded when the return succeeds", async () => {
    await sim.configure({ success_url: "http://merchant.example/ok" });
    const paid = await sim.pay(await sim.addTransaction({ orderId: "v", isVoid: true, isRecurring: true }));
    const ledger = await sim.ledger();
    const refund = ledger.refunds[0];
    expect(refund).toMatchObject({ operation: "void", state: "SUCCESS", order_id: "v", amount: "100.00" });
    expect(new URL(paid.body.redirect_url!).searchParams.get("refunded")).toBe("yes");
    const status = await sim.legacy("CheckStatus", { orderId: "v" });
    expect(status.body.payment).toMatchObject({
      paymentstate: "SUCCESS",
      refundState: true,
      refundTransactionId: refund?.refund_transaction_id,
    });
    expect(status.body.payment?.token).toEqual(expect.any(String));
  });

  it("SUCCESS → not refunded when the return fails", async () => {
    await sim.configure({ success_url: "http://merchant.example/ok" });
    const url = await sim.addTransaction({ orderId: "nv", isVoid: true, autoSave: "yes" });
    const paid = await sim.pay(url, { card_number: "4000000000000259" });
    expect(new URL(paid.body.redirect_url!).searchParams.get("refunded")).toBe("no");
    const status = await sim.legacy("CheckStatus", { orderId: "nv" });
    expect(status.body.payment).toMatchObject({ paymentstate: "SUCCESS", refundState: false });
    expect((await sim.ledger()).refunds[0]).toMatchObject({ operation: "void", state: "FAILED" });
  });
});
