import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trialEnd } from "../../../src/billing/index.js";
import {
  DuplicateSubscriptionError,
  EnrollmentCheckoutError,
  EnrollmentError,
  enroll,
  startReEnrollment,
} from "../../../src/enrollment/index.js";
import { createPlan } from "../../../src/plans/index.js";
import {
  type EnrollmentWorld,
  enrollmentOf,
  enrollNew,
  eventsOf,
  follow,
  ledgerOf,
  pay,
  paymentMethodsOf,
  seedCustomer,
  seedPlan,
  startEnrollmentWorld,
  subscriptionOf,
  typesOf,
} from "./support.js";

let world: EnrollmentWorld;
const h = () => world.h;

beforeAll(async () => {
  world = await startEnrollmentWorld();
});
afterAll(() => world?.close());

describe("enroll and pay", () => {
  it("saves the card encrypted and starts the subscription now", async () => {
    const customer = await seedCustomer(h());
    const plan = await seedPlan(h());
    const now = h().clock.now();

    const started = await enroll(h().ctx, { customerId: customer.id, planId: plan.id, actor: "test" });
    const pending = await subscriptionOf(h(), started.subscriptionId);
    expect(pending.status).toBe("pending_enrollment");
    expect((await enrollmentOf(h(), started.enrollmentId)).checkoutUrl).toBe(started.checkoutUrl);

    const paid = await pay(h(), started.checkoutUrl);
    expect(paid.status).toBe("SUCCESS");
    expect(paid.redirect_url.startsWith(`${world.server.url}/gateway/return/success?`)).toBe(true);
    const page = await follow(paid.redirect_url);
    expect(page.status).toBe(200);
    expect(page.contentType).toContain("text/html");
    expect(page.text).toContain("Your card is saved");

    const subscription = await subscriptionOf(h(), started.subscriptionId);
    expect(subscription.status).toBe("active");
    expect(subscription.billingAnchor?.toISOString()).toBe(now.toJSDate().toISOString());
    expect(subscription.nextBillingAt?.toISOString()).toBe(now.toJSDate().toISOString());
    expect(subscription.trialEnd).toBeNull();

    // The gateway saw one isVoid recurring checkout for the plan's price, ordered as the enrollment.
    const ledger = await ledgerOf(h());
    const payment = ledger.payments.find((p) => p.order_id === started.enrollmentId);
    expect(payment).toMatchObject({
      operation: "AddTransaction",
      amount: "100.00",
      currency: "QAR",
      refunded: true,
    });
    const token = ledger.tokens.find((t) => t.source_transaction_id === payment?.transaction_id);
    expect(token).toMatchObject({ kind: "recurring", amount: "100.00" });

    const [method, ...others] = await paymentMethodsOf(h(), started.subscriptionId);
    expect(others).toHaveLength(0);
    expect(subscription.paymentMethodId).toBe(method!.id);
    expect(method).toMatchObject({
      kind: "recurring",
      amountMinor: 10_000,
      currency: "QAR",
      customerId: customer.id,
    });
    expect(method!.issuedAt.toISOString()).toBe(now.toJSDate().toISOString());
    expect(method!.expiresAt.toISOString()).toBe(now.plus({ months: 6 }).toJSDate().toISOString());
    // Sealed at rest: the raw row does not hold the token, and the vault opens it to the gateway's.
    const [raw] = await h().database.sql`select * from payment_methods where id = ${method!.id}`;
    const cardToken = token!.card_token;
    expect(JSON.stringify(raw)).not.toContain(cardToken);
    expect(Buffer.from(raw!.token_ciphertext as Uint8Array).includes(Buffer.from(cardToken))).toBe(false);
    const opened = h().ctx.vault.decrypt({
      ciphertext: method!.tokenCiphertext,
      nonce: method!.tokenNonce,
      tag: method!.tokenTag,
      keyId: method!.tokenKeyId,
    });
    expect(opened).toBe(cardToken);
    expect(page.text).not.toContain(cardToken);

    const enrollment = await enrollmentOf(h(), started.enrollmentId);
    expect(enrollment).toMatchObject({
      status: "completed",
      gatewayTransactionId: payment!.transaction_id,
      voidRefunded: "yes",
      voidRefundTransactionId: payment!.refund_transaction_id,
      operatorAttention: null,
    });
    expect(typesOf(await eventsOf(h(), started.subscriptionId))).toEqual([
      "subscription.created",
      "enrollment.started",
      "enrollment.checkout_created",
      "enrollment.completed",
      "subscription.activated",
    ]);
  });

  it("starts a trial plan trialing, anchored and billed at the trial's end", async () => {
    const started = await enrollNew(h(), { plan: { name: "Trial", trial_days: 14 } });
    await follow((await pay(h(), started.checkoutUrl)).redirect_url);

    const end = trialEnd(h().clock.now(), 14, "Asia/Qatar").toJSDate().toISOString();
    const subscription = await subscriptionOf(h(), started.subscriptionId);
    expect(subscription.status).toBe("trialing");
    expect(subscription.trialEnd?.toISOString()).toBe(end);
    expect(subscription.billingAnchor?.toISOString()).toBe(end);
    expect(subscription.nextBillingAt?.toISOString()).toBe(end);
    const activated = (await eventsOf(h(), started.subscriptionId)).find(
      (e) => e.type === "subscription.activated",
    );
    expect(activated?.data).toMatchObject({
      status: "trialing",
      trial_end: DateTime.fromISO(end).toUTC().toISO(),
    });
  });

  it("saves an autosave token for a plan whose amount varies", async () => {
    const started = await enrollNew(h(), {
      plan: { name: "Metered", billing_mode: "autosave", amount: "25.50" },
    });
    await follow((await pay(h(), started.checkoutUrl)).redirect_url);

    const ledger = await ledgerOf(h());
    const payment = ledger.payments.find((p) => p.order_id === started.enrollmentId);
    expect(payment?.amount).toBe("25.50");
    expect(ledger.tokens.find((t) => t.source_transaction_id === payment?.transaction_id)?.kind).toBe(
      "autosave",
    );
    const [method] = await paymentMethodsOf(h(), started.subscriptionId);
    expect(method).toMatchObject({ kind: "autosave", amountMinor: null, currency: null });
    expect((await subscriptionOf(h(), started.subscriptionId)).status).toBe("active");
  });

  it("shows an Arabic customer the result in Arabic, right to left", async () => {
    const started = await enrollNew(h(), { customer: { language: "ar" } });
    // The checkout itself was asked for in Arabic.
    expect(await (await fetch(started.checkoutUrl)).text()).toContain('dir="rtl"');

    const page = await follow((await pay(h(), started.checkoutUrl)).redirect_url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="ar" dir="rtl">');
    expect(page.text).toContain("تم حفظ بطاقتك");
  });

  it("refuses unknown customers and plans, and archived plans, writing nothing", async () => {
    const customer = await seedCustomer(h());
    const plan = await seedPlan(h());
    const missing = "00000000-0000-4000-8000-000000000000";
    await expect(enroll(h().ctx, { customerId: missing, planId: plan.id, actor: "t" })).rejects.toMatchObject(
      {
        code: "customer_not_found",
      },
    );
    await expect(
      enroll(h().ctx, { customerId: customer.id, planId: missing, actor: "t" }),
    ).rejects.toMatchObject({
      code: "plan_not_found",
    });
    await expect(enroll(h().ctx, { customerId: "nope", planId: plan.id, actor: "t" })).rejects.toBeInstanceOf(
      EnrollmentError,
    );
    await h().database.sql`update plans set archived_at = now() where id = ${plan.id}`;
    await expect(
      enroll(h().ctx, { customerId: customer.id, planId: plan.id, actor: "t" }),
    ).rejects.toMatchObject({
      code: "plan_archived",
    });
    const [row] = await h().database
      .sql`select count(*)::int as count from subscriptions where customer_id = ${customer.id}`;
    expect(row?.count).toBe(0);
  });

  it("keeps the enrollment pending when AddTransaction's answer is lost, and a retry gives a working checkout", async () => {
    const customer = await seedCustomer(h());
    const plan = await seedPlan(h());
    await h().simAdmin("POST", "/_sim/faults", { operation: "AddTransaction", kind: "error5xx", times: 1 });

    const error = await enroll(h().ctx, { customerId: customer.id, planId: plan.id, actor: "test" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EnrollmentCheckoutError);
    const failed = error as EnrollmentCheckoutError;
    expect(failed).toMatchObject({ retryable: true, outcomeUnknown: true, subscriptionCanceled: false });
    // A checkout may exist at the gateway: the sweep settles the enrollment from CheckStatus.
    expect(await enrollmentOf(h(), failed.enrollmentId)).toMatchObject({
      status: "pending",
      checkoutUrl: null,
    });
    expect((await subscriptionOf(h(), failed.subscriptionId)).status).toBe("pending_enrollment");

    const retried = await startReEnrollment(h().ctx, {
      subscriptionId: failed.subscriptionId,
      actor: "test",
    });
    expect((await enrollmentOf(h(), failed.enrollmentId)).status).toBe("expired");
    await follow((await pay(h(), retried.checkoutUrl)).redirect_url);
    expect((await subscriptionOf(h(), failed.subscriptionId)).status).toBe("active");
  });

  it("cancels the new subscription when the gateway refuses its checkout, so nothing is left open", async () => {
    // GATEWAY_CURRENCIES wrongly lists KWD: the plan is accepted, the gateway refuses its checkout (-20).
    const misconfigured = { ...h().ctx, config: { ...h().ctx.config, GATEWAY_CURRENCIES: ["QAR", "KWD"] } };
    const customer = await seedCustomer(h());
    const plan = await createPlan(misconfigured, {
      name: "Dinar",
      amount: "10.000",
      currency: "KWD",
      interval: "month",
    });

    const error = await enroll(misconfigured, {
      customerId: customer.id,
      planId: plan.id,
      actor: "test",
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EnrollmentCheckoutError);
    const refused = error as EnrollmentCheckoutError;
    expect(refused).toMatchObject({ retryable: false, outcomeUnknown: false, subscriptionCanceled: true });
    expect(refused.message).toContain("no application data for the currency");
    expect(await subscriptionOf(h(), refused.subscriptionId)).toMatchObject({
      status: "canceled",
      endedReason: expect.stringMatching(/^checkout refused by the gateway: /),
    });
    expect(await enrollmentOf(h(), refused.enrollmentId)).toMatchObject({
      status: "failed",
      failureDescription: expect.stringMatching(/^checkout not created: /),
    });
    expect(typesOf(await eventsOf(h(), refused.subscriptionId))).toEqual([
      "subscription.created",
      "enrollment.started",
      "enrollment.failed",
      "subscription.canceled",
    ]);
    // The canceled subscription does not count: once the plan is sold in QAR, subscribing works.
    const qar = await seedPlan(h());
    await expect(
      enroll(misconfigured, { customerId: customer.id, planId: qar.id, actor: "test" }),
    ).resolves.toMatchObject({
      checkoutUrl: expect.any(String),
    });
  });

  it("refuses a plan in a currency the gateway account does not take, writing nothing", async () => {
    const customer = await seedCustomer(h());
    // A plan made while GATEWAY_CURRENCIES still listed KWD.
    const before = { ...h().ctx, config: { ...h().ctx.config, GATEWAY_CURRENCIES: ["QAR", "KWD"] } };
    const plan = await createPlan(before, {
      name: "Old",
      amount: "10.000",
      currency: "KWD",
      interval: "month",
    });
    await expect(
      enroll(h().ctx, { customerId: customer.id, planId: plan.id, actor: "t" }),
    ).rejects.toMatchObject({
      code: "currency_not_supported",
      message: expect.stringContaining("allowed: QAR (GATEWAY_CURRENCIES)"),
    });
    const [row] = await h().database
      .sql`select count(*)::int as count from subscriptions where customer_id = ${customer.id}`;
    expect(row?.count).toBe(0);
  });

  it("refuses a second subscription of a customer to a plan unless asked, naming the first", async () => {
    const customer = await seedCustomer(h());
    const plan = await seedPlan(h());
    const input = { customerId: customer.id, planId: plan.id, actor: "test" };
    const first = await enroll(h().ctx, input);

    const error = await enroll(h().ctx, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateSubscriptionError);
    expect(error).toMatchObject({
      code: "already_subscribed",
      existingSubscriptionId: first.subscriptionId,
      existingStatus: "pending_enrollment",
    });
    const second = await enroll(h().ctx, { ...input, allowDuplicate: true });
    expect(second.subscriptionId).not.toBe(first.subscriptionId);
  });

  it("lets only one of two enrolments of a customer at once through", async () => {
    const customer = await seedCustomer(h());
    const plan = await seedPlan(h());
    const input = { customerId: customer.id, planId: plan.id, actor: "test" };
    const results = await Promise.allSettled([enroll(h().ctx, input), enroll(h().ctx, input)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [refused] = results.filter((r) => r.status === "rejected");
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateSubscriptionError);
    const [row] = await h().database
      .sql`select count(*)::int as count from subscriptions where customer_id = ${customer.id}`;
    expect(row?.count).toBe(1);
  });
});
