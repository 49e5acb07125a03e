import { sql as dsql, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqlState, violates } from "../../src/db/errors.js";
import {
  chargeAttempts,
  charges,
  clockState,
  customers,
  events,
  invoices,
  plans,
  refunds,
  subscriptions,
} from "../../src/db/schema/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { days, planOfSubscription, START, seedCharge, seedSubscription } from "./fixtures.js";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

/** Runs `write` and expects Postgres to refuse it with this SQLSTATE and constraint. */
async function expectRefused(write: Promise<unknown>, code: string, constraint?: string): Promise<void> {
  const error = await write.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the database accepted the write").toBeDefined();
  expect(violates(error, code, constraint), String(error)).toBe(true);
}

async function attempt(
  chargeId: string,
  attemptNumber: number,
  orderId: string,
  status = "in_flight" as const,
) {
  return t.db.insert(chargeAttempts).values({ chargeId, attemptNumber, orderId, status }).returning();
}

describe("charges", () => {
  it("allows one charge per subscription and period", async () => {
    const { subscription } = await seedSubscription(t.db);
    await seedCharge(t.db, subscription.id);

    await expectRefused(
      seedCharge(t.db, subscription.id),
      SqlState.uniqueViolation,
      "charges_subscription_period_key",
    );
    const again = await t.db
      .insert(charges)
      .values({
        subscriptionId: subscription.id,
        planId: planOfSubscription(subscription.id),
        periodStart: START,
        periodEnd: days(31),
        amountMinor: 10_000,
        currency: "QAR",
      })
      .onConflictDoNothing({
        target: [charges.subscriptionId, charges.periodStart],
        where: dsql`kind = 'period'`,
      })
      .returning();
    expect(again).toEqual([]);
    await seedCharge(t.db, subscription.id, days(31));
  });

  it("refuses a paid charge without its transaction, and a due time on a settled charge", async () => {
    const { subscription } = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, subscription.id);

    await expectRefused(
      t.db
        .update(charges)
        .set({ status: "paid", paidAt: days(1), nextAttemptAt: null })
        .where(eq(charges.id, charge.id)),
      SqlState.checkViolation,
      "charges_paid_has_settlement",
    );
    await expectRefused(
      t.db.update(charges).set({ status: "uncollectible" }).where(eq(charges.id, charge.id)),
      SqlState.checkViolation,
      "charges_due_only_when_waiting",
    );
  });

  it("lets the dispatcher's query use the partial index", async () => {
    const plan = await t.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx`explain select id from charges
        where status in ('scheduled', 'retrying') and next_attempt_at is not null and next_attempt_at <= now()
        order by next_attempt_at limit 100`;
    });
    expect(JSON.stringify(plan)).toContain("charges_due_idx");
  });
});

describe("charge_attempts", () => {
  it("allows one attempt per order id", async () => {
    const { subscription } = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, subscription.id);
    const other = await seedCharge(t.db, subscription.id, days(31));
    await attempt(charge.id, 1, `order-${charge.id}`);

    await expectRefused(
      attempt(other.id, 1, `order-${charge.id}`),
      SqlState.uniqueViolation,
      "charge_attempts_order_id_key",
    );
  });

  it("allows at most one open (in_flight or unknown) attempt per charge", async () => {
    const { subscription } = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, subscription.id);
    const [first] = await attempt(charge.id, 1, `o1-${charge.id}`);

    await expectRefused(
      attempt(charge.id, 2, `o2-${charge.id}`),
      SqlState.uniqueViolation,
      "charge_attempts_one_open_per_charge",
    );
    await t.db.update(chargeAttempts).set({ status: "unknown" }).where(eq(chargeAttempts.id, first!.id));
    await expectRefused(
      attempt(charge.id, 2, `o2-${charge.id}`),
      SqlState.uniqueViolation,
      "charge_attempts_one_open_per_charge",
    );

    await t.db
      .update(chargeAttempts)
      .set({ status: "declined", declineCode: "51", settledAt: days(1) })
      .where(eq(chargeAttempts.id, first!.id));
    await attempt(charge.id, 2, `o2-${charge.id}`);
    await expectRefused(
      attempt(charge.id, 2, `o3-${charge.id}`),
      SqlState.uniqueViolation,
      "charge_attempts_charge_attempt_number_key",
    );
  });

  it("refuses an approved attempt without its gateway transaction", async () => {
    const { subscription } = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, subscription.id);
    const [open] = await attempt(charge.id, 1, `o-${charge.id}`);

    await expectRefused(
      t.db
        .update(chargeAttempts)
        .set({ status: "approved", settledAt: days(1) })
        .where(eq(chargeAttempts.id, open!.id)),
      SqlState.checkViolation,
      "charge_attempts_approved_has_transaction",
    );
  });
});

describe("invoices and refunds", () => {
  it("gives a charge at most one invoice", async () => {
    const { subscription } = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, subscription.id);
    const invoice = { chargeId: charge.id, amountMinor: 10_000, currency: "QAR" };
    await t.db.insert(invoices).values(invoice);

    await expectRefused(
      t.db.insert(invoices).values(invoice),
      SqlState.uniqueViolation,
      "invoices_charge_key",
    );
  });

  it("gives a charge at most one refund that has not failed", async () => {
    const { subscription } = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, subscription.id);
    const [paid] = await t.db
      .insert(chargeAttempts)
      .values({
        chargeId: charge.id,
        attemptNumber: 1,
        orderId: `o-${charge.id}`,
        status: "approved",
        gatewayTransactionId: `tx-${charge.id}`,
        settledAt: days(0),
      })
      .returning();
    const refund = {
      chargeId: charge.id,
      chargeAttemptId: paid!.id,
      refundedTransactionId: `tx-${charge.id}`,
      amountMinor: 10_000,
      currency: "QAR",
      channel: "v1" as const,
      requestedBy: "cli",
    };
    await t.db.insert(refunds).values({ ...refund, status: "failed", settledAt: days(1) });
    await t.db.insert(refunds).values(refund);

    await expectRefused(
      t.db.insert(refunds).values(refund),
      SqlState.uniqueViolation,
      "refunds_one_live_per_transaction",
    );
  });
});

describe("events", () => {
  it("is append-only: UPDATE, DELETE and TRUNCATE are refused by the trigger", async () => {
    const { subscription } = await seedSubscription(t.db);
    const [event] = await t.db
      .insert(events)
      .values({
        subscriptionId: subscription.id,
        type: "subscription.created",
        actor: "system",
        occurredAt: START,
      })
      .returning();
    expect(event!.data).toEqual({});

    await expectRefused(
      t.db.update(events).set({ type: "tampered" }).where(eq(events.id, event!.id)),
      SqlState.restrictViolation,
    );
    await expectRefused(t.db.delete(events).where(eq(events.id, event!.id)), SqlState.restrictViolation);
    await expectRefused(t.sql`truncate events cascade`, SqlState.restrictViolation);
    await expect(t.sql`delete from events`).rejects.toThrow(/events is append-only: DELETE refused/);

    const [kept] = await t.db.select().from(events).where(eq(events.id, event!.id));
    expect(kept?.type).toBe("subscription.created");
  });
});

describe("row ids", () => {
  /** The Unix milliseconds a version 7 UUID begins with. */
  const msOf = (id: string) => Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);

  it("are time-ordered UUIDs (version 7) written by the column default", async () => {
    const before = Date.now();
    const [first] = await t.db.insert(customers).values({ email: "first@example.com" }).returning();
    const [second] = await t.db.insert(customers).values({ email: "second@example.com" }).returning();
    const after = Date.now();
    for (const { id } of [first!, second!]) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // PostgreSQL's clock and this process's are the same machine's, to the millisecond.
      expect(msOf(id)).toBeGreaterThanOrEqual(before - 1);
      expect(msOf(id)).toBeLessThanOrEqual(after + 1);
    }
    expect(msOf(second!.id)).toBeGreaterThanOrEqual(msOf(first!.id));
  });

  it("keep 74 random bits: ids made in the same millisecond differ", async () => {
    const rows = await t.sql<{ id: string }[]>`select uuid_v7()::text as id from generate_series(1, 1000)`;
    expect(new Set(rows.map((row) => row.id)).size).toBe(1000);
  });
});

describe("checks and enums", () => {
  const plan = {
    name: "P",
    amountMinor: 1_000,
    currency: "QAR",
    intervalUnit: "month" as const,
    intervalCount: 1,
  };

  it("refuses bad plans", async () => {
    await expectRefused(
      t.db.insert(plans).values({ ...plan, amountMinor: -1 }),
      SqlState.checkViolation,
      "plans_amount_positive",
    );
    await expectRefused(t.db.insert(plans).values({ ...plan, amountMinor: 0 }), SqlState.checkViolation);
    await expectRefused(
      t.db.insert(plans).values({ ...plan, intervalCount: 0 }),
      SqlState.checkViolation,
      "plans_interval_count_range",
    );
    await expectRefused(
      t.db.insert(plans).values({ ...plan, intervalCount: 366 }),
      SqlState.checkViolation,
      "plans_interval_count_range",
    );
    await expectRefused(
      t.db.insert(plans).values({ ...plan, trialDays: -1 }),
      SqlState.checkViolation,
      "plans_trial_days_range",
    );
    await expectRefused(
      t.db.insert(plans).values({ ...plan, currency: "qar" }),
      SqlState.checkViolation,
      "plans_currency_code",
    );
    await expectRefused(
      t.sql`insert into plans (name, amount_minor, currency, interval_unit, interval_count)
            values ('P', 100, 'QAR', 'fortnight', 1)`,
      SqlState.invalidTextRepresentation,
    );
  });

  it("keeps customer e-mails lower-case and unique", async () => {
    await t.db.insert(customers).values({ email: "dup@example.com" });

    await expectRefused(
      t.db.insert(customers).values({ email: "Dup@Example.com" }),
      SqlState.checkViolation,
      "customers_email_normalised",
    );
    await expectRefused(
      t.db.insert(customers).values({ email: "dup@example.com" }),
      SqlState.uniqueViolation,
      "customers_email_key",
    );
  });

  it("keeps subscription states coherent", async () => {
    const { subscription } = await seedSubscription(t.db);
    const byId = eq(subscriptions.id, subscription.id);

    await expectRefused(
      t.db
        .update(subscriptions)
        .set({ status: "canceled", canceledAt: days(2) })
        .where(byId),
      SqlState.checkViolation,
      "subscriptions_billing_only_when_live",
    );
    await expectRefused(
      t.db.update(subscriptions).set({ status: "canceled", nextBillingAt: null }).where(byId),
      SqlState.checkViolation,
      "subscriptions_canceled_has_time",
    );
    await expectRefused(
      t.db.update(subscriptions).set({ currentPeriodEnd: START }).where(byId),
      SqlState.checkViolation,
      "subscriptions_period_order",
    );
    await expectRefused(
      t.sql`update subscriptions set status = 'expired' where id = ${subscription.id}`,
      SqlState.invalidTextRepresentation,
    );
    await t.db
      .update(subscriptions)
      .set({ status: "canceled", canceledAt: days(2), nextBillingAt: null })
      .where(byId);
  });

  it("refreshes updated_at on every update, raw SQL included", async () => {
    const { subscription } = await seedSubscription(t.db);
    await t.sql`update subscriptions set updated_at = '2000-01-01Z', cancel_at_period_end = true
                where id = ${subscription.id}`;

    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(row!.updatedAt.getTime()).toBeGreaterThan(Date.parse("2020-01-01Z"));
  });

  it("lets the scheduler's query use the partial index", async () => {
    const plan = await t.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return tx`explain select id from subscriptions
        where status in ('trialing', 'active', 'past_due') and next_billing_at is not null
          and next_billing_at <= now()
        order by next_billing_at limit 100`;
    });
    expect(JSON.stringify(plan)).toContain("subscriptions_due_idx");
  });

  it("keeps the billing clock a single row", async () => {
    await t.db.insert(clockState).values({ now: START });

    await expectRefused(
      t.db.insert(clockState).values({ id: 2, now: START }),
      SqlState.checkViolation,
      "clock_state_singleton",
    );
    await expectRefused(t.db.insert(clockState).values({ now: START }), SqlState.uniqueViolation);
  });

  it("loads relations through drizzle's relational queries", async () => {
    const { subscription, customer, plan: seeded } = await seedSubscription(t.db);
    await seedCharge(t.db, subscription.id);

    const found = await t.db.query.subscriptions.findFirst({
      where: eq(subscriptions.id, subscription.id),
      with: { customer: true, plan: true, charges: true, paymentMethod: true },
    });
    expect(found?.customer.email).toBe(customer.email);
    expect(found?.plan.id).toBe(seeded.id);
    expect(found?.charges).toHaveLength(1);
    expect(found?.paymentMethod).toBeNull();
    expect(typeof found?.charges[0]?.amountMinor).toBe("number");
    const [{ n } = { n: 0 }] = await t.db.select({ n: dsql<number>`count(*)::int` }).from(subscriptions);
    expect(n).toBeGreaterThan(0);
  });
});
