import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CARDS,
  type EnrollmentWorld,
  enrollmentOf,
  enrollNew,
  eventsOf,
  eventually,
  follow,
  ledgerOf,
  pay,
  startEnrollmentWorld,
  subscriptionOf,
} from "./support.js";

let world: EnrollmentWorld;
const h = () => world.h;

beforeAll(async () => {
  world = await startEnrollmentWorld();
});
afterAll(() => world?.close());

describe("an isVoid verification payment the gateway did not return", () => {
  it("is flagged for operators and refunded by exactly one automatic attempt", async () => {
    const started = await enrollNew(h());
    const paid = await pay(h(), started.checkoutUrl, { card: CARDS.voidFails });
    expect(new URL(paid.redirect_url).searchParams.get("refunded")).toBe("no");

    // The browser, replays of it and the webhooks all race; only one of them may refund.
    const pages = await Promise.all([
      ...Array.from({ length: 5 }, () => follow(paid.redirect_url)),
      follow(`${world.server.url}/gateway/webhook${new URL(paid.redirect_url).search}&status=SUCCESS`),
    ]);
    expect(pages.slice(0, 5).every((page) => page.text.includes("Your card is saved"))).toBe(true);

    const payment = (await ledgerOf(h())).payments.find((p) => p.order_id === started.enrollmentId)!;
    // The refund runs after the completing callback commits, which may have been the webhook's.
    const attempted = await eventually(async () =>
      (await eventsOf(h(), started.subscriptionId)).find(
        (e) => e.type === "enrollment.void_refund_attempted",
      ),
    );
    expect(attempted.data).toMatchObject({
      enrollment_id: started.enrollmentId,
      gateway_transaction_id: payment.transaction_id,
      result: "succeeded",
      refund_state: "SUCCESS",
    });

    const ledger = await ledgerOf(h());
    const refunds = ledger.refunds.filter((r) => r.transaction_id === payment.transaction_id);
    expect(refunds.map((r) => [r.operation, r.state])).toEqual([
      ["void", "FAILED"],
      ["Refund", "SUCCESS"],
    ]);
    expect(refunds[1]?.order_id).toBe(started.enrollmentId);

    const enrollment = await enrollmentOf(h(), started.enrollmentId);
    expect(enrollment).toMatchObject({
      status: "completed",
      voidRefunded: "no",
      voidRefundTransactionId: refunds[1]?.refund_transaction_id,
    });
    expect(enrollment.voidRefundDescription).toBeTruthy();
    expect(enrollment.operatorAttention).toContain(`verification payment ${payment.transaction_id}`);
    expect(enrollment.operatorAttention).toContain("automatic refund SUCCESS");

    const events = await eventsOf(h(), started.subscriptionId);
    const attention = events.filter((e) => e.type === "enrollment.needs_attention");
    expect(attention.map((e) => e.data)).toEqual([
      expect.objectContaining({ reason: "void_not_refunded", automatic_refund: "requested" }),
    ]);
    expect(events.filter((e) => e.type === "enrollment.void_refund_attempted")).toHaveLength(1);
    // The card was saved and the subscription started all the same.
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("active");

    // Later repeats change nothing and refund nothing more.
    await Promise.all(Array.from({ length: 3 }, () => follow(paid.redirect_url)));
    const after = await ledgerOf(h());
    expect(after.refunds.filter((r) => r.transaction_id === payment.transaction_id)).toHaveLength(2);
  });
});
