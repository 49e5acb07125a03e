import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineMessages } from "../../../src/app/messages.js";
import { deliverMessage, documentUrl, listMessages } from "../../../src/messages/index.js";
import { refundCharge } from "../../../src/refunds/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { paidByCard } from "../../support/paid-by-card.js";
import { chargesOf, createSubscription } from "../charging/fixtures.js";
import { jsonOf, runBilling } from "./support.js";

/**
 * `billing messages`, `billing receipts`, `billing credit-notes` and `billing customers update` as
 * child processes on the database of an engine that paid a charge the way billing pays one (so its
 * receipt and receipt message exist), with the engine's token key, so links sign the same.
 */

const PUBLIC_URL = "https://billing.example.qa";
let h: EngineHarness;
let env: NodeJS.ProcessEnv;
let dir: string;
let paid: Awaited<ReturnType<typeof paidByCard>>;

const billing = (...args: string[]) => runBilling(args, env);

beforeAll(async () => {
  h = await createEngineHarness({ publicUrl: PUBLIC_URL });
  paid = await paidByCard(h);
  dir = await mkdtemp(path.join(tmpdir(), "billing-documents-"));
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "test",
    DATABASE_URL: h.database.url,
    BILLING_CLOCK: "system",
    PUBLIC_URL,
    TOKEN_ENCRYPTION_KEY: h.ctx.config.TOKEN_ENCRYPTION_KEY,
    LOG_LEVEL: "silent",
  };
}, 60_000);
afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Message {
  id: string;
  kind: string;
  status: string;
  subject: string | null;
  text?: string | null;
  html?: string | null;
  resend_of: string | null;
  requested_by: string;
}

describe("billing messages", () => {
  it("lists a customer's messages, shows one with its headers and bodies, and resends it", async () => {
    const listed = jsonOf<{ data: Message[]; has_more: boolean }>(
      await billing("messages", "list", "--customer", paid.sub.customerId, "--json"),
    );
    expect(listed).toEqual({
      data: [expect.objectContaining({ kind: "receipt", status: "pending", requested_by: "system" })],
      has_more: false,
    });
    const [message] = listed.data as [Message];
    expect(
      jsonOf<{ data: Message[] }>(await billing("messages", "list", "--kind", "payment_due", "--json")),
    ).toEqual({
      data: [],
      has_more: false,
    });
    expect(await deliverMessage(engineMessages(h.ctx), message.id)).toMatchObject({ status: "kept" });

    const shown = jsonOf<Message>(await billing("messages", "show", message.id, "--json"));
    expect(shown).toMatchObject({
      id: message.id,
      status: "kept",
      subject: expect.stringContaining("RCT-000001"),
    });
    const human = await billing("messages", "show", message.id);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^subject\\s+${escapeRegExp(shown.subject ?? "")}$`, "m"));
    expect(human.stdout).toContain(`\n\n${shown.text}`);
    const html = await billing("messages", "show", message.id, "--html");
    expect(html.stdout).toBe(`${shown.html}\n`);

    const copy = jsonOf<Message>(await billing("messages", "resend", message.id, "--json"));
    expect(copy).toMatchObject({
      kind: "receipt",
      status: "pending",
      resend_of: message.id,
      requested_by: "cli",
    });
    const now = await listMessages(h.ctx.db, { customerId: paid.sub.customerId });
    expect(now.messages.map((m) => m.id)).toEqual([copy.id, message.id]);

    const unknown = await billing("messages", "show", "00000000-0000-0000-0000-000000000000");
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      "error: no message with id 00000000-0000-0000-0000-000000000000\n",
    ]);
  }, 60_000);
});

describe("billing receipts and credit-notes", () => {
  it("shows a receipt with its signed links and writes its PDF", async () => {
    const file = path.join(dir, "receipt.pdf");
    const shown = jsonOf<Record<string, unknown>>(
      await billing("receipts", "show", paid.chargeId, "--pdf", file, "--lang", "ar", "--json"),
    );
    expect(shown).toMatchObject({
      number: "RCT-000001",
      charge_id: paid.chargeId,
      amount: "100.00",
      amount_minor: 10_000,
      currency: "QAR",
      tax: null,
      url: documentUrl(h.ctx, "receipt", String(shown.id), "html"),
      pdf_url: documentUrl(h.ctx, "receipt", String(shown.id), "pdf"),
      pdf_file: file,
    });
    expect((await readFile(file)).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const sub = await createSubscription(h);
    await runBillingTick(h.ctx, { batchSize: 50 });
    await h.ctx.queues.obliterate();
    const [unpaid] = await chargesOf(h, sub.subscriptionId);
    const refused = await billing("receipts", "show", unpaid?.id ?? "");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`charge ${unpaid?.id} has no receipt: it is scheduled`);
  }, 60_000);

  it("shows a refund's credit note", async () => {
    const refunded = await paidByCard(h);
    const refund = await refundCharge(h.ctx, { chargeId: refunded.chargeId, actor: "test" });
    const file = path.join(dir, "credit-note.pdf");
    const shown = jsonOf<Record<string, unknown>>(
      await billing("credit-notes", "show", refund.id, "--pdf", file, "--json"),
    );
    expect(shown).toMatchObject({ number: "CN-000001", refund_id: refund.id, charge_id: refunded.chargeId });
    expect((await readFile(file)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  }, 60_000);
});

describe("billing customers update", () => {
  it("sets the time zone and the opt-outs, and names a bad value's option", async () => {
    const id = paid.sub.customerId;
    const updated = jsonOf<Record<string, unknown>>(
      await billing(
        "customers",
        "update",
        id,
        "--time-zone",
        "Asia/Qatar",
        "--opt-out",
        "receipt,payment_due",
        "--json",
      ),
    );
    expect(updated).toMatchObject({
      id,
      time_zone: "Asia/Qatar",
      message_opt_outs: ["receipt", "payment_due"],
    });
    const optedIn = jsonOf<Record<string, unknown>>(
      await billing("customers", "update", id, "--opt-in", "receipt", "--language", "ar", "--json"),
    );
    expect(optedIn).toMatchObject({ language: "ar", message_opt_outs: ["payment_due"] });
    const bad = await billing("customers", "update", id, "--time-zone", "Mars/Base");
    expect([bad.code, bad.stderr]).toEqual([
      2,
      "error: --time-zone: must be an IANA time zone, e.g. Asia/Qatar\n",
    ]);
    const nothing = await billing("customers", "update", id);
    expect(nothing.code).toBe(2);
  }, 60_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
