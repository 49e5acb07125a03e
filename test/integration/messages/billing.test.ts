import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTick } from "../../../src/app/index.js";
import { formatDocumentNumber } from "../../../src/billing/index.js";
import { charges, receipts, subscriptions } from "../../../src/db/schema/index.js";
import * as roles from "../../../src/runtime/roles.js";
import { CARDS, createSubscription } from "../charging/fixtures.js";
import { type EnrollmentWorld, enrollNew, follow, pay, startEnrollmentWorld } from "../enrollment/support.js";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js";
import {
  closeMessages,
  eventually,
  expectNoDuplicates,
  linksIn,
  mailsOf,
  messageRows,
  useMessages,
} from "./support.js";

/**
 * Customer messages through the real engine: customers enrolled at the simulator's checkout, the
 * scheduler's tick billing them on the controllable clock, the charge and message workers running
 * as the worker processes run them (src/runtime/roles.ts), and a real SMTP server receiving.
 */
describe("customer messages from billing", () => {
  let world: EnrollmentWorld;
  let smtp: TestSmtpServer;

  beforeEach(async () => {
    smtp = await startSmtpServer();
    world = await startEnrollmentWorld();
    useMessages(world.h, { SMTP_URL: smtp.url, MERCHANT_NAME: "Doha Fitness" });
    await roles.charges(world.h.ctx);
    await roles.messages(world.h.ctx);
  });
  afterEach(async () => {
    await world?.close();
    if (world) await closeMessages(world.h);
    await smtp?.stop();
  });

  async function enrolled(language: "en" | "ar") {
    const enrolment = await enrollNew(world.h, { customer: { language, name: `Customer ${language}` } });
    await follow((await pay(world.h, enrolment.checkoutUrl)).redirect_url);
    return enrolment.subscriptionId;
  }

  async function paidCharges(subscriptionId: string, count: number) {
    return eventually(async () => {
      const rows = await world.h.ctx.db
        .select()
        .from(charges)
        .where(eq(charges.subscriptionId, subscriptionId));
      expect(rows.filter((row) => row.status === "paid")).toHaveLength(count);
      return rows;
    });
  }

  it("sends one receipt per payment over a month, in each customer's language", async () => {
    const { h } = world;
    const english = await enrolled("en");
    const arabic = await enrolled("ar");

    await runTick(h.ctx);
    await paidCharges(english, 1);
    await paidCharges(arabic, 1);
    // The next tick finds the receipts the payments wrote to the outbox.
    await runTick(h.ctx);
    await eventually(() => expect(smtp.accepted).toHaveLength(2));

    const [subscription] = await h.ctx.db.select().from(subscriptions).where(eq(subscriptions.id, english));
    h.clock.set(DateTime.fromJSDate(subscription!.nextBillingAt!));
    await runTick(h.ctx);
    await paidCharges(english, 2);
    await paidCharges(arabic, 2);
    await runTick(h.ctx);

    const issued = await h.ctx.db.select().from(receipts);
    expect(issued).toHaveLength(4);
    const rows = await eventually(async () => {
      const all = (await messageRows(h)).filter((row) => row.kind === "receipt");
      expect(all.map((row) => row.status)).toEqual(["sent", "sent", "sent", "sent"]);
      return all;
    });
    const mails = mailsOf(smtp.accepted, rows);
    expect(mails).toHaveLength(4);
    expectNoDuplicates(mails);

    for (const receipt of issued) {
      const row = rows.find((message) => message.chargeId === receipt.chargeId)!;
      const mail = mails.find((sent) => sent.messageId === row.messageId)!;
      const number = formatDocumentNumber("receipt", receipt.number);
      expect(mail.subject).toContain(number);
      expect(mail.text).toContain(number);
      expect(mail.headers.get("auto-submitted")).toBe("auto-generated");
      expect(mail.from?.value[0]).toMatchObject({ name: "Doha Fitness", address: h.ctx.config.MAIL_FROM });
      expect(row.lastResponse).toMatch(/^250 /);
      const [charge] = await h.ctx.db.select().from(charges).where(eq(charges.id, receipt.chargeId));
      if (charge!.subscriptionId === english) {
        expect(mail.subject).toContain("Receipt");
        expect(mail.subject).toContain("QAR 100.00");
        expect(mail.html).toContain('lang="en"');
      } else {
        expect(mail.subject).toContain("إيصال");
        expect(mail.subject).toContain("100.00 ر.ق.");
        expect(mail.html).toContain('dir="rtl"');
      }
      const [view, pdf] = linksIn(mail.text).filter((link) => link.includes("/documents/receipt/"));
      expect(view).toMatch(new RegExp(`/documents/receipt/${receipt.id}/[\\w-]+$`));
      expect(pdf).toBe(`${view}.pdf`);
    }
  });

  it("sends one payment_failed notice with a working link, however many retries fail", async () => {
    const { h } = world;
    const sub = await createSubscription(h, { card: CARDS.alwaysDeclined });

    await runTick(h.ctx);
    const [charge] = await eventually(async () => {
      const rows = await h.ctx.db
        .select()
        .from(charges)
        .where(eq(charges.subscriptionId, sub.subscriptionId));
      expect(rows.map((row) => row.status)).toEqual(["retrying"]);
      return rows;
    });
    await runTick(h.ctx);
    const [notice] = await eventually(() => {
      expect(smtp.accepted).toHaveLength(1);
      return smtp.accepted;
    });
    expect(notice!.subject).toBe("Your payment of QAR 100.00 failed");
    expect(notice!.text).toContain("Insufficient funds");
    const [fix] = linksIn(notice!.text).filter((link) => link.includes("/new-card"));
    expect(fix).toContain(`/subscriptions/${sub.subscriptionId}/new-card?`);
    // The link opens a checkout for a new card at the gateway: followed to its page, it answers 200.
    const page = await fetch(fix!);
    expect(page.status).toBe(200);
    expect(page.url.startsWith(h.sim.url)).toBe(true);

    // The dunning retries (days 1 and 3) are declined again: no second notice for the charge.
    for (const attempt of [2, 3]) {
      const [due] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge!.id));
      h.clock.set(DateTime.fromJSDate(due!.nextAttemptAt!));
      await runTick(h.ctx);
      await eventually(async () => {
        const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge!.id));
        expect(row).toMatchObject({ status: "retrying", attemptCount: attempt });
      });
      await runTick(h.ctx);
    }
    const failedNotices = (await messageRows(h)).filter((row) => row.kind === "payment_failed");
    expect(failedNotices).toHaveLength(1);
    expect(failedNotices[0]).toMatchObject({ status: "sent", chargeId: charge!.id, attempts: 1 });
    expect(smtp.accepted).toHaveLength(1);
  });
});
