import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { resumeCollection } from "../../../src/breaker/index.js";
import { tickAndCheck } from "../../support/tick.js";
import { subscriptionOf } from "../enrollment/support.js";
import { chargeRow, dueLinkCharge, eachWorld, linkRow, subscribeByLink } from "./support.js";

/**
 * While the gateway circuit breaker is open, a payment link is still the customer's to pay: its
 * checkout is asked about and its reminders go (nothing is charged by us). Only ending its
 * collection waits, as ending a card's does: the customer may have been unable to pay through a
 * broken gateway, so nobody is condemned for that until an operator resumes.
 */
describe("payment links while the circuit breaker is open", () => {
  const world = eachWorld();

  it("reminders go, the end of collection waits for the breaker to close", async () => {
    const { h } = world.w;
    const sub = await subscribeByLink(h);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    await h.ctx.db.$client`
      insert into gateway_breaker (id, opened_at, reason, signal) values (1, now(), 'test', 'not_found')`;
    const sentAt = DateTime.fromJSDate((await linkRow(h, charge.id))!.sentAt);

    let ended = 0;
    for (const day of [1, 3, 5, 7, 9]) {
      h.clock.set(sentAt.plus({ days: day }));
      const tick = await tickAndCheck(h.ctx, { batchSize: 10 });
      expect(tick.paused).toBe(true);
      ended += tick.linksEnded;
    }
    expect(ended).toBe(0);
    expect((await linkRow(h, charge.id))?.remindersSent).toBe(4);
    expect((await chargeRow(h, charge.id)).status).toBe("awaiting_payment");
    expect((await subscriptionOf(h, sub.subscriptionId)).status).toBe("past_due");

    await resumeCollection(h.ctx, { actor: "test" });
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({ paused: false, linksEnded: 1 });
    expect((await chargeRow(h, charge.id)).status).toBe("uncollectible");
    expect((await subscriptionOf(h, sub.subscriptionId)).status).toBe("unpaid");
  });
});
