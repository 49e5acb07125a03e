import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import * as mupdf from "mupdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chargeAttempts,
  charges,
  creditNotes,
  customers,
  paymentMethods,
  receipts,
  refunds,
} from "../../../src/db/schema/index.js";
import {
  loadCreditNote,
  loadReceipt,
  type MerchantIdentity,
  renderDocumentHtml,
  renderDocumentPdf,
} from "../../../src/documents/index.js";
import { days, seedSubscription } from "../../db/fixtures.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

/**
 * Receipts and credit notes read from real rows (written here directly, as the payment and refund
 * transactions write them), then printed.
 */

const MERCHANT: MerchantIdentity = {
  name: "Doha Fitness Club",
  address: ["West Bay, Doha"],
  taxId: "300012345600003",
  logoUrl: null,
};

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

let nextNumber = 1;
const sealedCard = (last4: string, subscriptionId: string, customerId: string, createdAt: Date) => ({
  customerId,
  subscriptionId,
  kind: "autosave" as const,
  tokenCiphertext: randomBytes(24),
  tokenNonce: randomBytes(12),
  tokenTag: randomBytes(16),
  tokenKeyId: "k1",
  tokenFingerprint: createHash("sha256").update(randomBytes(16)).digest("hex"),
  cardLast4: last4,
  issuedAt: createdAt,
  expiresAt: days(180),
  createdAt,
});

/**
 * A subscription whose card 4242 paid a charge of 80.50 QAR (a 100.00 plan, 10 % off, 9.50 of
 * credit) on day 3, its receipt issued at 15 % VAT, and a card 1111 saved after the payment.
 */
async function paidCharge(channel: "card_token" | "checkout" = "card_token") {
  const { customer, plan, subscription } = await seedSubscription(t.db);
  await t.db.insert(paymentMethods).values(sealedCard("4242", subscription.id, customer.id, days(1)));
  const transactionId = `TX-${randomBytes(6).toString("hex")}`;
  const [charge] = await t.db
    .insert(charges)
    .values({
      subscriptionId: subscription.id,
      planId: plan.id,
      periodStart: days(0),
      periodEnd: days(31),
      amountMinor: 8_050,
      currency: "QAR",
      discountMinor: 1_000,
      discountPercent: 10,
      creditMinor: 950,
      status: "paid",
      attemptCount: 1,
      paidAt: days(3),
      paidTransactionId: transactionId,
    })
    .returning();
  const [attempt] = await t.db
    .insert(chargeAttempts)
    .values({
      chargeId: charge!.id,
      orderId: `o-${charge!.id}`,
      attemptNumber: 1,
      status: "approved",
      channel,
      gatewayTransactionId: transactionId,
      createdAt: days(3),
      settledAt: days(3),
    })
    .returning();
  await t.db.insert(paymentMethods).values(sealedCard("1111", subscription.id, customer.id, days(5)));
  const [receipt] = await t.db
    .insert(receipts)
    .values({
      number: nextNumber++,
      chargeId: charge!.id,
      customerId: customer.id,
      amountMinor: 8_050,
      currency: "QAR",
      taxRateBp: 1_500,
      taxLabel: "VAT",
      issuedAt: days(3),
    })
    .returning();
  return { customer, charge: charge!, attempt: attempt!, receipt: receipt!, transactionId };
}

describe("loadReceipt", () => {
  it("reads everything the receipt prints, by charge or by receipt", async () => {
    const { customer, charge, receipt, transactionId } = await paidCharge();
    const model = await loadReceipt(t.db, { chargeId: charge.id }, MERCHANT);
    expect(model).toEqual({
      kind: "receipt",
      number: `RCT-${String(receipt.number).padStart(6, "0")}`,
      issuedAt: days(3),
      timeZone: "Asia/Qatar",
      currency: "QAR",
      merchant: MERCHANT,
      customer: { name: "Test Customer", email: customer.email, language: "en" },
      lines: [
        {
          kind: "plan",
          planName: "Monthly",
          planChange: false,
          periodStart: days(0),
          periodEnd: days(31),
          amountMinor: 10_000,
        },
        { kind: "discount", couponPercent: 10, amountMinor: -1_000 },
        { kind: "credit", amountMinor: -950 },
      ],
      subtotalMinor: 7_000,
      tax: { label: "VAT", rateBp: 1_500, includedMinor: 1_050 },
      totalMinor: 8_050,
      // The card the subscription held when the attempt began, not the one saved since.
      payment: { cardLast4: "4242", transactionId, paidAt: days(3) },
      refund: null,
    });
    expect(await loadReceipt(t.db, { receiptId: receipt.id }, MERCHANT)).toEqual(model);
  });

  it("shows no card for a payment made on the gateway's checkout page", async () => {
    const { receipt } = await paidCharge("checkout");
    const model = await loadReceipt(t.db, { receiptId: receipt.id }, MERCHANT);
    expect(model?.payment.cardLast4).toBeNull();
  });

  it("shows dates on the customer's own calendar when they have one", async () => {
    const { customer, receipt } = await paidCharge();
    await t.db.update(customers).set({ timeZone: "Europe/London" }).where(eq(customers.id, customer.id));
    expect((await loadReceipt(t.db, { receiptId: receipt.id }, MERCHANT))?.timeZone).toBe("Europe/London");
  });

  it("is null for a charge without a receipt, or an unknown receipt", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await loadReceipt(t.db, { chargeId: unknown }, MERCHANT)).toBeNull();
    expect(await loadReceipt(t.db, { receiptId: unknown }, MERCHANT)).toBeNull();
  });

  it("prints the loaded receipt as HTML and as a PDF", async () => {
    const { charge, receipt } = await paidCharge();
    const model = await loadReceipt(t.db, { chargeId: charge.id }, MERCHANT);
    if (!model) throw new Error("receipt not found");
    const number = `RCT-${String(receipt.number).padStart(6, "0")}`;

    const html = renderDocumentHtml(model, { language: "ar" });
    expect(html).toContain('dir="rtl"');
    for (const figure of [
      number,
      "100.00 QAR",
      "-10.00 QAR",
      "-9.50 QAR",
      "70.00 QAR",
      "10.50 QAR",
      "80.50 QAR",
    ])
      expect(html).toContain(figure);

    const pdf = await renderDocumentPdf(model, { language: "en" });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = mupdf.Document.openDocument(pdf, "application/pdf")
      .loadPage(0)
      .toStructuredText("preserve-whitespace")
      .asText();
    for (const figure of [
      number,
      "Monthly",
      "1 Jan 2025 – 1 Feb 2025",
      "80.50 QAR",
      "VAT 15% included",
      "•••• 4242",
    ])
      expect(text).toContain(figure);
  });
});

describe("loadCreditNote", () => {
  it("reads the refund, the payment it returns and the receipt of that payment", async () => {
    const { customer, charge, attempt, receipt, transactionId } = await paidCharge();
    const [refund] = await t.db
      .insert(refunds)
      .values({
        chargeId: charge.id,
        chargeAttemptId: attempt.id,
        refundedTransactionId: transactionId,
        amountMinor: 8_050,
        currency: "QAR",
        channel: "v1",
        status: "completed",
        gatewayRefundTransactionId: "RF-1",
        requestedBy: "test",
        settledAt: days(10),
      })
      .returning();
    const [note] = await t.db
      .insert(creditNotes)
      .values({
        number: 7,
        refundId: refund!.id,
        chargeId: charge.id,
        customerId: customer.id,
        amountMinor: 8_050,
        currency: "QAR",
        taxRateBp: 1_500,
        taxLabel: "VAT",
        issuedAt: days(10),
      })
      .returning();

    const model = await loadCreditNote(t.db, { refundId: refund!.id }, MERCHANT);
    expect(model).toMatchObject({
      kind: "credit_note",
      number: "CN-000007",
      issuedAt: days(10),
      totalMinor: 8_050,
      tax: { includedMinor: 1_050 },
      payment: { cardLast4: "4242", transactionId, paidAt: days(3) },
      refund: {
        refundedTransactionId: transactionId,
        refundTransactionId: "RF-1",
        receiptNumber: `RCT-${String(receipt.number).padStart(6, "0")}`,
        status: "completed",
      },
    });
    expect(model?.lines).toHaveLength(3);
    expect(await loadCreditNote(t.db, { creditNoteId: note!.id }, MERCHANT)).toEqual(model);
    expect(await loadCreditNote(t.db, { refundId: charge.id }, MERCHANT)).toBeNull();

    const text = mupdf.Document.openDocument(
      await renderDocumentPdf(model!, { language: "bilingual" }),
      "application/pdf",
    )
      .loadPage(0)
      .toStructuredText("preserve-whitespace")
      .asText();
    for (const figure of ["CN-000007", "80.50 QAR", "RF-1", "إشعار دائن", "Credit note"])
      expect(text).toContain(figure);
  });
});
