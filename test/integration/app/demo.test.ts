import { asc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { chargeAttempts, charges } from "../../../src/db/schema/index.js";
import { type DemoEngine, startDemoEngine } from "../../../src/runtime/demo/engine.js";
import { DEMO_START, playDemo } from "../../../src/runtime/demo/play.js";
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

let demo: DemoEngine | undefined;
afterAll(() => demo?.close());

describe("the demo", () => {
  it("tells the story of every customer; the debit customer pays every month by link", async () => {
    demo = await startDemoEngine({ name: "demo-test", start: DEMO_START });
    const lines: string[] = [];
    const { cast, summary } = await playDemo(demo, (text) => lines.push(text));
    const { ctx } = demo.engine;

    // The card customers' story is unchanged by the one who pays by link.
    expect(summary.totals).toMatchObject({
      onTime: 15,
      recovered: ["Carla after 3 attempts", "Dana after 3 attempts"],
      invoiced: 2,
      canceled: ["Omar"],
      changes: ["Aisha: 33.88 QAR charged at once"],
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
    const reply = await fetch(`${demo.simulator.url}/_sim/ledger?only=payments`);
    const { payments } = (await reply.json()) as { payments: LedgerPayment[] };
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
  }, 240_000);
});
