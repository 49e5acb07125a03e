import { describe, expect, it } from "vitest";
import { processChargeBatch } from "../../../src/charging/index.js";
import { enroll, startReEnrollment } from "../../../src/enrollment/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import {
  CARDS,
  enrollNew,
  eventsOf,
  follow,
  pay,
  seedCustomer,
  seedPlan,
  subscriptionOf,
} from "../enrollment/support.js";
import { chargeRow, eachWorld, ledgerFor, linkOf, payLink } from "./support.js";

/** The action of the result page's "pay by payment link instead" form, if the page offers it. */
function offerOf(page: string): string | null {
  return (
    /<form class="by-link" method="post" action="([^"]+)">/.exec(page)?.[1]?.replaceAll("&amp;", "&") ?? null
  );
}

async function post(url: string) {
  const response = await fetch(url, { method: "POST", redirect: "manual" });
  await response.text();
  return { status: response.status, location: response.headers.get("location") };
}

/**
 * A Qatar debit card cannot pay a recurring payment, so the checkout that was to save it fails;
 * the customer is offered to pay by link instead, and pays the first period by link with that
 * same card.
 */
describe("a debit card that cannot recur falls back to payment links", () => {
  const world = eachWorld();

  it("offers links after the failed enrolment, starts by link and collects the first period", async () => {
    const { w } = world;
    const { h } = w;
    const customer = await seedCustomer(h, { language: "ar" });
    const plan = await seedPlan(h);
    const enrolled = await enroll(h.ctx, { customerId: customer.id, planId: plan.id, actor: "test" });

    const refused = await pay(h, enrolled.checkoutUrl, { card: CARDS.qatarDebit });
    expect(refused.status).toBe("FAILURE");
    const page = await follow(refused.redirect_url);
    expect(page.text).toContain("الدفع عبر رابط دفع بدلاً من ذلك");
    const action = offerOf(page.text);
    expect(action).toMatch(
      new RegExp(`^${w.server.url}/pay/enrollment/${enrolled.enrollmentId}/[A-Za-z0-9_-]{43}$`),
    );
    expect((await subscriptionOf(h, enrolled.subscriptionId)).status).toBe("pending_enrollment");
    // The merchant hears of it (a webhook), with the way out.
    const failed = (await eventsOf(h, enrolled.subscriptionId)).find(
      (e) => e.type === "subscription.enrollment_failed",
    );
    expect(failed?.data).toMatchObject({
      enrollment_id: enrolled.enrollmentId,
      alternative: "send_payment_link",
      description: expect.stringContaining("cannot pay a recurring payment"),
    });

    // A forged signature opens nothing.
    expect((await post(`${action!.slice(0, -4)}AAAA`)).status).toBe(404);

    const taken = await post(action!);
    expect(taken.status).toBe(303);
    const duePage = taken.location!;
    expect(duePage).toMatch(new RegExp(`/pay/subscription/${enrolled.subscriptionId}/`));
    // Clicking twice lands on the same page and changes nothing more.
    expect(await post(action!)).toEqual(taken);
    expect(await subscriptionOf(h, enrolled.subscriptionId)).toMatchObject({
      status: "active",
      collectionMethod: "send_payment_link",
      paymentMethodId: null,
    });

    // The tick has not billed yet: the page says so and reloads itself.
    const preparing = await follow(duePage);
    expect(preparing.text).toContain("جارٍ تجهيز دفعتك");
    expect(preparing.text).toContain('http-equiv="refresh"');

    await runBillingTick(h.ctx, { batchSize: 10 });
    const [due] = await h.ctx.db.$client<{ id: string }[]>`
      select id from charges where subscription_id = ${enrolled.subscriptionId}::uuid`;
    await processChargeBatch(h.ctx, [due!.id]);
    const toLink = await fetch(duePage, { redirect: "manual" });
    expect(toLink.status).toBe(303);
    expect(toLink.headers.get("location")).toBe(await linkOf(h, due!.id));

    await payLink(w, await linkOf(h, due!.id), { card: CARDS.qatarDebit });
    expect((await chargeRow(h, due!.id)).status).toBe("paid");
    expect((await ledgerFor(h, due!.id)).paid).toHaveLength(1);
    expect((await follow(duePage)).text).toContain("لا يوجد ما تدفعه الآن");
    const types = (await eventsOf(h, enrolled.subscriptionId)).map((e) => e.type);
    expect(types).toContain("subscription.collection_method_changed");
  });

  it("offers nothing when the subscription already has its card", async () => {
    const { w } = world;
    const { h } = w;
    const enrolled = await enrollNew(h);
    await follow((await pay(h, enrolled.checkoutUrl)).redirect_url);
    const again = await startReEnrollment(h.ctx, { subscriptionId: enrolled.subscriptionId, actor: "test" });
    const page = await follow((await pay(h, again.checkoutUrl!, { card: CARDS.qatarDebit })).redirect_url);
    expect(page.text).toContain("could not be confirmed");
    expect(offerOf(page.text)).toBeNull();
    const types = (await eventsOf(h, enrolled.subscriptionId)).map((e) => e.type);
    expect(types).toContain("enrollment.failed");
    expect(types).not.toContain("subscription.enrollment_failed");
    expect((await subscriptionOf(h, enrolled.subscriptionId)).collectionMethod).toBe("charge_automatically");
  });
});
