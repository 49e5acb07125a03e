import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSharedClock } from "../../../src/context/index.js";
import { memoryClockStore } from "../../support/clock-store.js";
import {
  type EnrollmentWorld,
  enrollNew,
  follow,
  pay,
  startEnrollmentWorld,
  subscriptionOf,
} from "./support.js";

/**
 * The billing clock is shared by every process through the database; a process that serves HTTP
 * must read it afresh for each request. Here the server's clock is one shared clock and another
 * process (another shared clock on the same store) advances it; the gateway callback that
 * completes an enrolment must start the subscription at the advanced time, not at the stale one.
 */
let world: EnrollmentWorld;

beforeAll(async () => {
  world = await startEnrollmentWorld();
});
afterAll(() => world?.close());

describe("HTTP requests read the shared billing clock afresh", () => {
  it("starts a subscription paid through a callback at the time another process moved the clock to", async () => {
    const h = world.h;
    const store = memoryClockStore(h.clock.now());
    h.ctx.clock = await createSharedClock(store);
    const other = await createSharedClock(store);

    const started = await enrollNew(h);
    const moved = await other.advance("P10D");
    const paid = await pay(h, started.checkoutUrl);
    expect((await follow(paid.redirect_url)).status).toBe(200);

    const subscription = await subscriptionOf(h, started.subscriptionId);
    expect(subscription.status).toBe("active");
    expect(subscription.billingAnchor?.toISOString()).toBe(moved.toUTC().toISO());
    expect(subscription.nextBillingAt?.toISOString()).toBe(moved.toUTC().toISO());
  });
});
