import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enrollments } from "../../../src/db/schema/index.js";
import { newCardLink } from "../../../src/http/index.js";
import { type EnrollmentWorld, enrollNew, follow, pay, startEnrollmentWorld } from "../enrollment/support.js";

/** A signed link opens a fresh checkout on an existing subscription; anything else is refused. */
describe("new-card links", () => {
  let world: EnrollmentWorld;
  let subscriptionId: string;

  beforeAll(async () => {
    world = await startEnrollmentWorld();
    const { h } = world;
    const enrolment = await enrollNew(h);
    const paid = await pay(h, enrolment.checkoutUrl);
    await follow(paid.redirect_url);
    subscriptionId = enrolment.subscriptionId;
  });
  afterAll(() => world?.close());

  it("redirects a signed link to a new checkout for the subscription", async () => {
    const link = newCardLink(world.h.ctx, subscriptionId, world.h.clock.now());
    expect(link.startsWith(`${world.server.url}/subscriptions/${subscriptionId}/new-card?`)).toBe(true);

    const response = await fetch(link, { redirect: "manual" });
    expect(response.status).toBe(303);
    const checkout = response.headers.get("location");
    expect(checkout).toMatch(new RegExp(`^${world.h.sim.url}/checkout/`));

    const pending = await world.h.ctx.db
      .select()
      .from(enrollments)
      .where(eq(enrollments.subscriptionId, subscriptionId));
    expect(pending.filter((row) => row.status === "pending").map((row) => row.checkoutUrl)).toEqual([
      checkout,
    ]);

    // Opened again while that checkout is pending: the same checkout, not a new one at the gateway.
    const again = await fetch(link, { redirect: "manual" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(checkout);
    const after = await world.h.ctx.db
      .select()
      .from(enrollments)
      .where(eq(enrollments.subscriptionId, subscriptionId));
    expect(after).toHaveLength(pending.length);
  });

  it("reads the expiry strictly: another spelling of the signed number is refused", async () => {
    const link = new URL(newCardLink(world.h.ctx, subscriptionId, world.h.clock.now()));
    const expires = link.searchParams.get("expires")!;
    for (const spelling of [`${expires}.0`, `0${expires}`, `+${expires}`, ` ${expires}`, `${expires}e0`]) {
      const variant = new URL(link);
      variant.searchParams.set("expires", spelling);
      expect((await fetch(variant, { redirect: "manual" })).status).toBe(404);
    }
  });

  it("refuses a tampered, a foreign or an expired link without opening a checkout", async () => {
    const link = new URL(newCardLink(world.h.ctx, subscriptionId, world.h.clock.now()));
    const before = await world.h.ctx.db.select().from(enrollments);

    const tampered = new URL(link);
    tampered.searchParams.set("sig", "0".repeat(64));
    const foreign = new URL(link.toString().replace(subscriptionId, "00000000-0000-4000-8000-000000000000"));
    const expired = new URL(
      newCardLink(world.h.ctx, subscriptionId, world.h.clock.now().minus({ days: 31 })),
    );

    for (const url of [tampered, foreign, expired]) {
      const response = await fetch(url, { redirect: "manual" });
      expect(response.status).toBe(404);
    }
    expect(await world.h.ctx.db.select().from(enrollments)).toHaveLength(before.length);
  });
});
