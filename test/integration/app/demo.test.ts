import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeAttempts, chargeLines, charges, planChanges } from "../../../src/db/schema/index.js";
import { type DemoEngine, startDemoEngine } from "../../../src/runtime/demo/engine.js";
import { DEMO_START, type DemoRun, playDemo } from "../../../src/runtime/demo/play.js";
import { CARDS } from "../../../src/runtime/demo/scenario.js";

/**
 * `npm run demo` as scripts/demo.ts plays it (src/runtime/demo/play.ts), on the zero-config engine
 * in this process, checked from the database and the simulator's ledger before it is stopped.
 */

interface LedgerPayment {
  transaction_id: string;
  operation: string;
  status: string;
  order_id: string | null;
  amount: string;
  currency: string;
}

let demo: DemoEngine;
let run: DemoRun;
const lines: string[] = [];
afterAll(() => demo?.close());

async function gatewayPayments(): Promise<LedgerPayment[]> {
  const reply = await fetch(`${demo.simulator.url}/_sim/ledger?only=payments`);
  return ((await reply.json()) as { payments: LedgerPayment[] }).payments;
}

function subscriptionOf(name: string): string {
  const member = run.cast.find((m) => m.name === name);
  if (!member) throw new Error(`no ${name} in the cast`);
  return member.subscriptionId;
}

describe("the demo", () => {
  beforeAll(async () => {
    demo = await startDemoEngine({ name: "demo-test", start: DEMO_START });
    run = await playDemo(demo, (text) => lines.push(text));
  }, 240_000);

  it("tells the story of every customer; the debit customer pays every month by link", async () => {
    const { cast, summary } = run;
    const { ctx } = demo.engine;

    // The card customers' story is unchanged by the one who pays by link and the metered two:
    // Nadia's 3 periods and seat change, Khalid's 3 periods and 2 usage charges are on time too.
    expect(summary.totals).toMatchObject({
      onTime: 15 + 4 + 5,
      recovered: ["Carla after 3 attempts", "Dana after 3 attempts"],
      invoiced: 2,
      canceled: ["Omar"],
      changes: ["Aisha: 33.88 QAR charged at once", "Nadia: 32.15 QAR charged at once"],
    });
    expect(summary.totals.byLink).toEqual(["Hessa Jan 2026", "Hessa Feb 2026", "Hessa Mar 2026"]);
    expect(summary.rows.find((row) => row.customer === "Hessa")).toMatchObject({
      "Jan 2026": "paid by link",
      "Feb 2026": "paid by link",
      "Mar 2026": "paid by link",
      subscription: "active",
    });
    expect(lines.filter((line) => line.includes("Hessa opens this month's payment link"))).toHaveLength(3);

    const hessa = cast.find((member) => member.name === "Hessa");
    expect(hessa).toMatchObject({ card: CARDS.qatarDebit, byLink: true });
    const billed = await ctx.db
      .select()
      .from(charges)
      .where(eq(charges.subscriptionId, hessa!.subscriptionId))
      .orderBy(asc(charges.periodStart));
    expect(billed).toHaveLength(3);
    for (const charge of billed) {
      expect(charge).toMatchObject({ status: "paid", amountMinor: 9_900, currency: "QAR" });
      expect(charge.paidTransactionId).not.toBeNull();
    }

    // Each charge paid once, by a checkout opened from its link: the attempt of the checkout
    // channel, and in the gateway's ledger one successful "checkout" payment of its order ids.
    const payments = await gatewayPayments();
    for (const charge of billed) {
      const attempts = await ctx.db
        .select()
        .from(chargeAttempts)
        .where(eq(chargeAttempts.chargeId, charge.id));
      const approved = attempts.filter((attempt) => attempt.status === "approved");
      expect(approved).toHaveLength(1);
      expect(approved[0]).toMatchObject({
        channel: "checkout",
        gatewayTransactionId: charge.paidTransactionId,
      });
      const mine = payments.filter((p) => p.order_id?.startsWith(`chg_${charge.id}_`));
      expect(mine.filter((p) => p.status === "SUCCESS")).toEqual([
        expect.objectContaining({
          operation: "checkout",
          amount: "99.00",
          currency: "QAR",
          transaction_id: charge.paidTransactionId,
        }),
      ]);
      expect(mine.filter((p) => p.operation === "GetnewPayment")).toEqual([]);
    }
  });

  it("bills Nadia 25.00 QAR a seat, prorating her change from 3 seats to 5", async () => {
    const { ctx } = demo.engine;
    const billed = await ctx.db
      .select()
      .from(charges)
      .where(eq(charges.subscriptionId, subscriptionOf("Nadia")))
      .orderBy(asc(charges.periodStart));
    // Changed on 15 Feb, 18 of the period's 28 days left: 5 × 25.00 × 18/28 = 80.357… → 80.36
    // less 3 × 25.00 × 18/28 = 48.214… → 48.21 is 32.15.
    expect(
      billed.map(({ kind, quantity, amountMinor, status }) => ({ kind, quantity, amountMinor, status })),
    ).toEqual([
      { kind: "period", quantity: 3, amountMinor: 7_500, status: "paid" },
      { kind: "period", quantity: 3, amountMinor: 7_500, status: "paid" },
      { kind: "plan_change", quantity: 5, amountMinor: 3_215, status: "paid" },
      { kind: "period", quantity: 5, amountMinor: 12_500, status: "paid" },
    ]);
    const [change] = await ctx.db
      .select()
      .from(planChanges)
      .where(eq(planChanges.subscriptionId, subscriptionOf("Nadia")));
    expect(change).toMatchObject({ fromQuantity: 3, toQuantity: 5, creditMinor: 4_821, debitMinor: 8_036 });
    expect(run.summary.totals.seats).toEqual([
      "Nadia Jan 2026: 3 × 25.00 = 75.00 QAR",
      "Nadia Feb 2026: 3 × 25.00 = 75.00 QAR",
      "Nadia Feb 2026: seats 3 → 5, 32.15 QAR at once (the period's rest: 80.36 for 5 seats less 48.21 for 3)",
      "Nadia Mar 2026: 5 × 25.00 = 125.00 QAR",
    ]);
    expect(run.summary.rows.find((row) => row.customer === "Nadia")).toMatchObject({
      "Feb 2026": "3 seats paid on time; upgrade 32.15 paid on time",
      "Mar 2026": "5 seats paid on time",
    });
  });

  it("charges Khalid's API calls once each period closed, late calls in the grace included", async () => {
    const { ctx } = demo.engine;
    const usage = await ctx.db
      .select({ charge: charges, calls: chargeLines.quantity })
      .from(charges)
      .innerJoin(chargeLines, eq(chargeLines.chargeId, charges.id))
      .where(and(eq(charges.subscriptionId, subscriptionOf("Khalid")), eq(charges.kind, "usage")))
      .orderBy(asc(charges.periodStart));
    // January: 400 + 700 + 500 + 200 late = 1,800 calls, 800 past the free 1,000 at 0.05 = 40.00;
    // February: 900 + 1,200 + 500 = 2,600, 1,600 × 0.05 = 80.00. March's period has not closed.
    expect(
      usage.map(({ charge, calls }) => ({
        period: charge.periodStart.toISOString(),
        calls,
        amountMinor: charge.amountMinor,
        status: charge.status,
      })),
    ).toEqual([
      { period: "2026-01-05T06:00:00.000Z", calls: 1_800, amountMinor: 4_000, status: "paid" },
      { period: "2026-02-05T06:00:00.000Z", calls: 2_600, amountMinor: 8_000, status: "paid" },
    ]);
    // Each collected once from the saved card, at the usage's amount.
    const payments = await gatewayPayments();
    for (const [i, amount] of ["40.00", "80.00"].entries()) {
      const charge = usage[i]!.charge;
      const mine = payments.filter((p) => p.order_id?.startsWith(`chg_${charge.id}_`));
      expect(mine.filter((p) => p.status === "SUCCESS")).toEqual([
        expect.objectContaining({
          operation: "GetnewPayment",
          amount,
          currency: "QAR",
          transaction_id: charge.paidTransactionId,
        }),
      ]);
    }
    expect(run.summary.totals.usage).toEqual([
      "Khalid Jan 2026: 1,800 API calls billed 40.00 QAR, paid",
      "Khalid Feb 2026: 2,600 API calls billed 80.00 QAR, paid",
      // 300 + 600 + 450 = 1,350: 350 × 0.05, due at the period's end (5 Apr 09:00) plus 24 hours.
      "Khalid Mar 2026: 1,350 API calls so far, 17.50 QAR to be charged Mon 06 Apr 09:00",
    ]);
    expect(lines.filter((line) => line.includes("Khalid's app reports"))).toHaveLength(10);
  });
});
