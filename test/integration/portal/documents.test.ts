import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { creditNotes, receipts } from "../../../src/db/schema/index.js";
import { documentUrl } from "../../../src/messages/index.js";
import { refundCharge } from "../../../src/refunds/index.js";
import { paidByCard } from "../../support/paid-by-card.js";
import { type EnrollmentWorld, startEnrollmentWorld } from "../enrollment/support.js";
import { signIn } from "./support.js";

/**
 * The portal's charges with their documents, over HTTP: a paid charge links its receipt (the page
 * and the PDF, by the same signed links as its message), a refunded one its credit note too, in
 * English and in Arabic; the links open without the portal's session.
 */
let world: EnrollmentWorld;
let paid: Awaited<ReturnType<typeof paidByCard>>;

beforeAll(async () => {
  world = await startEnrollmentWorld();
  paid = await paidByCard(world.h);
}, 60_000);
afterAll(() => world?.close());

const rowOf = (html: string, chargeId: string) =>
  new RegExp(`<tr data-charge="${chargeId}">[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";

it("links a paid charge's receipt and a refunded one's credit note, in both languages", async () => {
  const { ctx } = world.h;
  const [receipt] = await ctx.db.select().from(receipts).where(eq(receipts.chargeId, paid.chargeId));
  const receiptUrl = documentUrl(ctx, "receipt", receipt?.id ?? "", "html");
  const browser = await signIn(world, paid.sub.customerId);

  const english = await (await browser.get("/portal")).text();
  expect(english).toContain("<th>Documents</th>");
  const row = rowOf(english, paid.chargeId);
  expect(row).toContain(
    `<span class="document" data-document="receipt"><a href="${receiptUrl}" rel="noopener noreferrer" target="_blank">Receipt <span class="num" dir="ltr">RCT-000001</span></a> <a class="muted" href="${receiptUrl}.pdf" rel="noopener noreferrer" target="_blank">PDF</a></span>`,
  );
  expect(row).not.toContain('data-document="credit-note"');
  // The link is the customer's own key to the document: no portal session needed.
  const opened = await fetch(receiptUrl);
  expect(opened.status).toBe(200);
  expect(await opened.text()).toContain("RCT-000001");

  const refund = await refundCharge(ctx, { chargeId: paid.chargeId, actor: "test" });
  const [note] = await ctx.db.select().from(creditNotes).where(eq(creditNotes.refundId, refund.id));
  const noteUrl = documentUrl(ctx, "credit_note", note?.id ?? "", "html");
  const arabic = rowOf(await (await browser.get("/portal?lang=ar")).text(), paid.chargeId);
  expect(arabic).toContain(`<a href="${receiptUrl}" rel="noopener noreferrer" target="_blank">الإيصال`);
  expect(arabic).toContain(
    `<span class="document" data-document="credit-note"><a href="${noteUrl}" rel="noopener noreferrer" target="_blank">إشعار دائن <span class="num" dir="ltr">CN-000001</span></a>`,
  );
  expect((await fetch(`${noteUrl}.pdf`)).headers.get("content-type")).toBe("application/pdf");
}, 60_000);
