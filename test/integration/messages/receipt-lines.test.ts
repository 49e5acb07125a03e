import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAddon, setSubscriptionAddon } from "../../../src/addons/index.js";
import { startChargeWorker } from "../../../src/charging/index.js";
import { customers } from "../../../src/db/schema/index.js";
import { dispatchDueMessages, type MessageContext } from "../../../src/messages/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { chargeStatuses, createSubscription } from "../charging/fixtures.js";
import { type EnrollmentWorld, startEnrollmentWorld } from "../enrollment/support.js";
import { closeMessages, messageRows, useMessages } from "./support.js";

/**
 * The receipt e-mail itemises a charge that stored lines (a plan at a quantity, add-ons) as the
 * receipt document does, in English and Arabic, text and HTML; a flat plan at quantity 1 stores
 * none and its receipt names the plan alone, as before. Rendered and kept (no SMTP configured).
 */
describe("receipt lines", () => {
  let world: EnrollmentWorld;
  let messages: MessageContext;

  beforeEach(async () => {
    world = await startEnrollmentWorld();
    messages = useMessages(world.h);
    startChargeWorker(world.h.ctx, { concurrency: 2, ratePerSecond: 100 });
  });
  afterEach(async () => {
    await world?.close();
    if (world) await closeMessages(world.h);
  });

  /** A paid period of `options`' subscription, and its receipt e-mail as rendered for `language`. */
  async function receiptOf(
    language: "en" | "ar",
    options: Parameters<typeof createSubscription>[1],
    addon?: string,
  ) {
    const { h } = world;
    const sub = await createSubscription(h, options);
    await h.ctx.db.update(customers).set({ language }).where(eq(customers.id, sub.customerId));
    if (addon) {
      await setSubscriptionAddon(h.ctx, {
        subscriptionId: sub.subscriptionId,
        addon,
        quantity: 1,
        actor: "test",
      });
    }
    await runBillingTick(h.ctx, { batchSize: 10 });
    await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    await dispatchDueMessages(messages, { limit: 50 });
    const [receipt] = (await messageRows(h)).filter(
      (row) => row.kind === "receipt" && row.customerId === sub.customerId,
    );
    expect(receipt).toMatchObject({ status: "kept" });
    return { text: receipt!.textBody ?? "", html: receipt!.htmlBody ?? "" };
  }

  const seats = {
    kind: "autosave" as const,
    quantity: 3,
    amountMinor: 5_000,
    price: { priceModel: "per_unit" as const },
  };

  it("lists a seat plan at quantity 3 and an add-on with their amounts", async () => {
    await createAddon(world.h.ctx, {
      code: "support",
      name: "Priority <support> & care",
      currency: "QAR",
      amount: "25.00",
    });

    const en = await receiptOf("en", seats, "support");
    expect(en.text).toContain(
      ["Amount paid: QAR 175.00", "Plan: Monthly", "Period: 15 January 2026 – 15 February 2026"].join("\n"),
    );
    expect(en.text).toContain(
      [
        "",
        "What you paid for:",
        "Monthly × 3: QAR 150.00",
        "Priority <support> & care: QAR 25.00",
        "",
        "View your receipt:",
      ].join("\n"),
    );
    expect(en.html).toContain("<bdi>Monthly × 3</bdi></td>");
    expect(en.html).toContain("<bdi>QAR 150.00</bdi></td>");
    expect(en.html).toContain("<bdi>Priority &lt;support&gt; &amp; care</bdi></td>");
    expect(en.html).toContain("<bdi>QAR 25.00</bdi></td>");
    expect(en.html).not.toContain("<support>");

    const ar = await receiptOf("ar", seats, "support");
    const FSI = "\u2068";
    const PDI = "\u2069";
    expect(ar.text).toContain(
      [
        "",
        "تفاصيل المبلغ المدفوع:",
        `${FSI}Monthly × 3${PDI}: ${FSI}150.00 ر.ق.${PDI}`,
        `${FSI}Priority <support> & care${PDI}: ${FSI}25.00 ر.ق.${PDI}`,
        "",
        "عرض الإيصال:",
      ].join("\n"),
    );
    expect(ar.html).toContain("<bdi>Monthly × 3</bdi></td>");
    expect(ar.html).toContain("<bdi>150.00 ر.ق.</bdi></td>");
    expect(ar.html).toContain("<bdi>Priority &lt;support&gt; &amp; care</bdi></td>");
    expect(ar.html).toContain("<bdi>25.00 ر.ق.</bdi></td>");
  });

  it("keeps the receipt of a flat plan at quantity 1 as it was: the plan alone", async () => {
    const en = await receiptOf("en", {});
    expect(en.text).toContain("Amount paid: QAR 100.00\nPlan: Monthly\n");
    expect(en.text).not.toMatch(/What you paid for|×/);
    expect(en.html).not.toMatch(/What you paid for|×/);
    const ar = await receiptOf("ar", {});
    expect(ar.text).not.toMatch(/تفاصيل المبلغ المدفوع|×/);
    expect(ar.html).not.toMatch(/تفاصيل المبلغ المدفوع|×/);
  });
});
