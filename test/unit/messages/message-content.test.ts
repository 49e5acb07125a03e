import { describe, expect, it } from "vitest";
import { createMessageRenderer } from "../../../src/messages/render/index.js";
import { input, MODELS, visible } from "./fixtures.js";

const renderer = createMessageRenderer();

async function text(
  ...args: Parameters<typeof input>
): Promise<{ subject: string; text: string; html: string }> {
  const message = await renderer.render(input(...args));
  return { subject: visible(message.subject), text: visible(message.text), html: message.html };
}

describe("receipt", () => {
  it("lists the receipt's facts, dates in the customer's zone", async () => {
    const en = await text(MODELS.receipt, "en");
    expect(en.subject).toBe("Receipt RCT-000042 from Acme — QAR 1,234.50");
    expect(en.text).toContain("Period: 1 November 2026 – 30 November 2026");
    expect(en.text).toContain("Paid on: 1 November 2026, 09:05");
    expect(en.text).toContain("Card: •••• 4242");
    expect(en.text).toContain("Transaction ID: TX-998877");
    expect(en.html).toContain(">View receipt</a>");
    const ar = await text(MODELS.receipt, "ar");
    expect(ar.subject).toBe("إيصال RCT-000042 من Acme — 1,234.50 ر.ق.");
    expect(ar.text).toContain("الفترة: من 1 نوفمبر 2026 إلى 30 نوفمبر 2026");
    expect(ar.text).toContain("تاريخ الدفع: 1 نوفمبر 2026، 09:05");
    expect(ar.html).toContain(">عرض الإيصال</a>");
  });

  it("moves a payment time into the customer's zone, across midnight", async () => {
    const late = { ...MODELS.receipt, paidAt: "2026-11-30T22:30:00Z" };
    expect((await text(late, "en")).text).toContain("Paid on: 1 December 2026, 01:30");
    expect((await text(late, "en", { timeZone: "UTC" })).text).toContain("Paid on: 30 November 2026, 22:30");
  });

  it("keeps a calendar date on its day in any zone", async () => {
    const message = await text(MODELS.receipt, "en", { timeZone: "Pacific/Honolulu" });
    expect(message.text).toContain("Period: 1 November 2026 – 30 November 2026");
  });

  it("itemises the charge's lines, what came off them negative, in text and HTML", async () => {
    const en = await text(MODELS.receipt, "en");
    expect(en.text).toContain(
      [
        "What you paid for:",
        "Pro Monthly × 3: QAR 1,200.00",
        "Priority support: QAR 100.00",
        "Discount 5%: QAR -65.00",
        "Credit applied: QAR -0.50",
        "",
      ].join("\n"),
    );
    expect(en.html).toContain("<bdi>Pro Monthly × 3</bdi></td>");
    expect(en.html).toContain("<bdi>QAR -0.50</bdi></td>");
    const ar = await text(MODELS.receipt, "ar");
    expect(ar.text).toContain(
      [
        "تفاصيل المبلغ المدفوع:",
        "Pro Monthly × 3: 1,200.00 ر.ق.",
        "Priority support: 100.00 ر.ق.",
        "خصم 5%: -65.00 ر.ق.",
        "الرصيد المستخدم: -0.50 ر.ق.",
        "",
      ].join("\n"),
    );
    expect(ar.html).toContain("<bdi>خصم 5%</bdi></td>");
  });

  it("names only the plan of a charge without lines", async () => {
    const plain = { ...MODELS.receipt, lines: [] };
    for (const language of ["en", "ar"] as const) {
      const message = await text(plain, language);
      expect(message.text).not.toMatch(/What you paid for|تفاصيل المبلغ المدفوع|×/);
      expect(message.html).not.toMatch(/What you paid for|تفاصيل المبلغ المدفوع|×/);
    }
  });

  it("leaves out the card and transaction lines it does not have", async () => {
    const bare = { ...MODELS.receipt, cardLast4: null, transactionId: null };
    const en = await text(bare, "en");
    expect(en.text).not.toMatch(/Card:|Transaction ID/);
    expect(en.html).not.toMatch(/>Card<|Transaction ID/);
  });
});

describe("payment_due", () => {
  it("says a first notice and a reminder apart", async () => {
    expect((await text(MODELS.payment_due, "en")).subject).toBe("Payment due: QAR 1,234.50 for Pro Monthly");
    const reminder = { ...MODELS.payment_due, reminder: 2 };
    expect((await text(reminder, "en")).subject).toBe("Reminder: QAR 1,234.50 for Pro Monthly is still due");
    expect((await text(reminder, "ar")).subject).toMatch(/^تذكير: /);
  });

  it("gives the pay-by date when there is one, and a Pay now button", async () => {
    const en = await text(MODELS.payment_due, "en");
    expect(en.text).toContain("Please pay by 8 November 2026.");
    expect(en.html).toContain(">Pay now</a>");
    const open = await text({ ...MODELS.payment_due, payBy: null }, "en");
    expect(open.text).not.toContain("Please pay by");
    expect((await text(MODELS.payment_due, "ar")).html).toContain(">ادفع الآن</a>");
  });
});

describe("payment_failed", () => {
  it("says what happened, when we try again, and offers the card update", async () => {
    const en = await text(MODELS.payment_failed, "en");
    expect(en.subject).toBe("Your payment of QAR 1,234.50 failed");
    expect(en.text).toContain("We could not take your payment of QAR 1,234.50");
    expect(en.text).toContain("Reason: Insufficient funds");
    expect(en.text).toContain("We will try the payment again on 4 November 2026.");
    expect(en.html).toContain('href="https://pay.example.qa/card/c1"');
    expect(en.html).toContain(">Update your card</a>");
    const ar = await text(MODELS.payment_failed, "ar");
    expect(ar.text).toContain("سنحاول تحصيل المبلغ مرة أخرى في 4 نوفمبر 2026.");
    expect(ar.html).toContain(">تحديث البطاقة</a>");
  });

  it("offers Pay now for a payment link, and no retry line without a next attempt", async () => {
    const link = { ...MODELS.payment_failed, fixKind: "payment_link" as const, nextAttemptAt: null };
    const en = await text(link, "en");
    expect(en.html).toContain(">Pay now</a>");
    expect(en.html).not.toContain("Update your card");
    expect(en.text).not.toContain("try the payment again");
    expect((await text(link, "ar")).html).toContain(">ادفع الآن</a>");
  });

  it("asks the customer to contact the merchant when there is neither a link nor a retry", async () => {
    const stuck = {
      ...MODELS.payment_failed,
      fixUrl: null,
      fixKind: null,
      nextAttemptAt: null,
      reason: null,
    };
    const en = await text(stuck, "en");
    expect(en.text).toContain("Please contact us to keep your subscription active.");
    expect(en.text).not.toContain("Reason:");
    expect(en.html).not.toContain('<a href="https://pay');
  });
});

describe("card_expiring", () => {
  it("names the card and the month it expires in", async () => {
    const en = await text(MODELS.card_expiring, "en");
    expect(en.subject).toBe("Your card ending in 4242 expires in November 2026");
    expect(en.text).toContain("expires at the end of November 2026");
    expect(en.html).toContain(">Update your card</a>");
    expect((await text(MODELS.card_expiring, "ar")).subject).toBe(
      "تنتهي صلاحية بطاقتك •••• 4242 في نوفمبر 2026",
    );
  });

  it("speaks of the saved card when its digits are unknown", async () => {
    const unknown = { ...MODELS.card_expiring, cardLast4: null, newCardUrl: null };
    const en = await text(unknown, "en");
    expect(en.subject).toBe("Your saved card expires in November 2026");
    expect(en.text).toContain("Contact us if you need a link");
  });
});

describe("renewal_upcoming", () => {
  it("announces a renewal with its date and amount", async () => {
    const en = await text(MODELS.renewal_upcoming, "en");
    expect(en.subject).toBe("Your Pro Monthly subscription renews on 1 December 2026 for QAR 1,234.50");
    expect(en.text).toContain("To change or cancel your subscription, visit your account:");
  });

  it("tells a converting trial that the card will be charged, how much, when, and how to cancel", async () => {
    const trial = { ...MODELS.renewal_upcoming, trialConverts: true };
    const en = await text(trial, "en");
    expect(en.subject).toBe("Your free trial ends on 1 December 2026: QAR 1,234.50 will be charged");
    expect(en.text).toContain("Your free trial of Pro Monthly ends on 1 December 2026.");
    expect(en.text).toContain("On 1 December 2026, your card will be charged QAR 1,234.50.");
    expect(en.text).toContain("If you do not want to be charged, cancel before 1 December 2026");
    expect(en.text).toContain("https://pay.example.qa/portal/o1");
    const ar = await text(trial, "ar");
    expect(ar.text).toContain("تنتهي الفترة التجريبية المجانية");
    expect(ar.text).toContain("في 1 ديسمبر 2026 سيُخصم مبلغ 1,234.50 ر.ق. من بطاقتك");
    expect(ar.text).toContain("ألغِ اشتراكك");
    const noPortal = await text({ ...trial, portalUrl: null }, "en");
    expect(noPortal.text).toContain("contact us before 1 December 2026 to cancel");
  });
});

describe("trial_ending", () => {
  it("says the saved card will be charged, or asks for a card", async () => {
    const withCard = await text(MODELS.trial_ending, "en");
    expect(withCard.text).toContain("your saved card will be charged QAR 1,234.50");
    expect(withCard.html).toContain(">Manage subscription</a>");
    const noCard = await text({ ...MODELS.trial_ending, hasCard: false }, "en");
    expect(noCard.text).toContain("add a card before then");
    expect(noCard.html).toContain(">Add a card</a>");
    expect((await text({ ...MODELS.trial_ending, hasCard: false }, "ar")).html).toContain(">إضافة بطاقة</a>");
  });

  it("tells a trial that pays by link that a payment link will come, not that a card is charged", async () => {
    const byLink = { ...MODELS.trial_ending, hasCard: false, paysByLink: true };
    const english = await text(byLink, "en");
    expect(english.text).toContain("we will e-mail you a payment link");
    expect(english.text).not.toContain("saved card will be charged");
    expect((await text(byLink, "ar")).html).toContain("سنرسل إليك رابط دفع");
  });
});

describe("subscription_canceled", () => {
  it("says until when the subscription runs, or that it has ended", async () => {
    const en = await text(MODELS.subscription_canceled, "en");
    expect(en.text).toContain("was canceled on 20 November 2026");
    expect(en.text).toContain("You can keep using it until 30 November 2026; it will not renew.");
    const ended = await text({ ...MODELS.subscription_canceled, endsOn: null }, "ar");
    expect(ended.text).toContain("لقد انتهى اشتراكك ولن يتجدد.");
  });
});

describe("refund_issued", () => {
  it("refunds the whole payment and says the bank may take days while processing", async () => {
    const en = await text(MODELS.refund_issued, "en");
    expect(en.subject).toBe("Refund of QAR 1,234.50 issued — credit note CN-000007");
    expect(en.text).toContain("We have refunded your payment in full (receipt RCT-000042).");
    expect(en.text).toContain("Your bank may take a few business days");
    const done = await text({ ...MODELS.refund_issued, processing: false, receiptNumber: null }, "en");
    expect(done.text).toContain("We have refunded your payment in full.");
    expect(done.text).toContain("The refund is complete");
    expect(done.text).not.toContain("business days");
    const ar = await text(MODELS.refund_issued, "ar");
    expect(ar.text).toContain("كامل مبلغ دفعتك");
    expect(ar.text).toContain("بضعة أيام عمل");
  });
});
