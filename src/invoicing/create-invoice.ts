import { and, eq, ne, sql } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { invoices } from "../db/schema/index.js";
import { EVENT_TYPES, type EventInput, recordEvent } from "../events/index.js";
import {
  GatewayAuthenticationError,
  GatewayError,
  type Invoice as GatewayInvoice,
  GatewayRejectedError,
} from "../gateway/index.js";
import { type ChargeFacts, loadChargeFacts } from "./charge-facts.js";
import { invoiceRequestFor } from "./invoice-request.js";
import { isNumberTaken } from "./number-taken.js";

/**
 * createInvoiceForCharge: a charge whose dunning ended without payment (status uncollectible) gets a
 * gateway invoice (POST /v1/invoices), and ONE CHARGE NEVER GETS TWO INVOICES:
 * - the invoices row is inserted first, status pending (unique charge_id): a second run finds it and
 *   continues or stops, it never starts another; attempts is counted up before each call, so an
 *   attempt > 0 says "may have reached the gateway";
 * - the gateway invoice's number is our charge id, and the gateway refuses a number twice;
 * - a transport failure (GatewayUnavailableError) records last_error and throws, so the job retries
 *   with backoff; a retry sends the same number again;
 * - "number: already exists" on a retry means an earlier request DID create the invoice and its
 *   reply was lost. The spec has no invoice lookup, so its gateway id and link cannot be learnt: the
 *   row becomes `failed` (created needs the gateway id) with last_error saying the invoice exists
 *   under our number and needs looking up, and `invoice.created` is recorded with confirmed: false,
 *   because the customer did get an invoice. No further request is sent for the charge;
 * - any other refusal is final: the row becomes failed with the reason (an operator sets it back to
 *   pending and re-enqueues once the cause, e.g. a plan's product id, is fixed). Credential failures
 *   are a configuration problem, so they throw and retry instead;
 * - a charge that is no longer owed (paid with a new card, written off) is not invoiced; a pending
 *   row for it is closed as failed, naming our number if an attempt may have reached the gateway.
 */

export type InvoiceOutcome =
  | {
      kind: "created";
      invoiceId: string;
      gatewayInvoiceId: number;
      number: string;
      link: string | null;
      /** True when an earlier run had already created it and nothing was sent now. */
      alreadyCreated: boolean;
    }
  /** The gateway holds an invoice under our number, but its id and link were lost with a reply. */
  | { kind: "unconfirmed"; invoiceId: string; number: string }
  | { kind: "failed"; invoiceId: string; reason: string }
  | { kind: "skipped"; reason: string };

const ACTOR = "system";

type InvoiceRow = typeof invoices.$inferSelect;

async function findRow(ctx: Pick<EngineContext, "db">, chargeId: string): Promise<InvoiceRow | undefined> {
  const [row] = await ctx.db.select().from(invoices).where(eq(invoices.chargeId, chargeId));
  return row;
}

/** What a row that is no longer pending means to the caller. */
function settled(row: InvoiceRow): InvoiceOutcome | undefined {
  if (row.status === "created" && row.gatewayInvoiceId !== null) {
    return {
      kind: "created",
      invoiceId: row.id,
      gatewayInvoiceId: row.gatewayInvoiceId,
      number: row.number ?? row.chargeId,
      link: row.link,
      alreadyCreated: true,
    };
  }
  if (row.status === "failed")
    return { kind: "failed", invoiceId: row.id, reason: row.lastError ?? "failed" };
  return undefined;
}

export async function createInvoiceForCharge(ctx: EngineContext, chargeId: string): Promise<InvoiceOutcome> {
  const facts = await loadChargeFacts(ctx, chargeId);
  const existing = await findRow(ctx, chargeId);
  if (facts.status !== "uncollectible") {
    const reason = `charge is ${facts.status}, not uncollectible: nothing to invoice`;
    if (existing?.status === "pending") return closeAsNotOwed(ctx, facts, existing, reason);
    return existing ? (settled(existing) ?? { kind: "skipped", reason }) : { kind: "skipped", reason };
  }
  const row = existing ?? (await insertPending(ctx, facts));
  const done = settled(row);
  if (done) return done;

  // Count the attempt before sending: a crash mid-call then still shows it may have reached the gateway.
  const [claimed] = await ctx.db
    .update(invoices)
    .set({ attempts: sql`${invoices.attempts} + 1` })
    .where(and(eq(invoices.id, row.id), eq(invoices.status, "pending")))
    .returning();
  if (!claimed) return outcomeOfRow(ctx, chargeId);

  const issuedAt = ctx.clock.now();
  let invoice: GatewayInvoice;
  try {
    invoice = await ctx.gateway.v1.createInvoice(invoiceRequestFor({ ...facts, issuedAt }));
  } catch (error) {
    if (isNumberTaken(error)) return settleUnconfirmed(ctx, facts, claimed);
    const description = error instanceof GatewayError ? error.message : String(error);
    const permanent = error instanceof GatewayRejectedError && !(error instanceof GatewayAuthenticationError);
    if (permanent) return settleFailed(ctx, facts, claimed, `gateway refused the invoice: ${description}`);
    await ctx.db.update(invoices).set({ lastError: description }).where(eq(invoices.id, claimed.id));
    ctx.logger.warn(
      { chargeId, attempts: claimed.attempts, err: error },
      "invoice creation failed; will retry",
    );
    throw error;
  }
  return settleCreated(ctx, facts, claimed, invoice);
}

async function insertPending(ctx: Pick<EngineContext, "db">, facts: ChargeFacts): Promise<InvoiceRow> {
  const [inserted] = await ctx.db
    .insert(invoices)
    .values({
      chargeId: facts.chargeId,
      status: "pending",
      number: facts.chargeId,
      amountMinor: facts.amountMinor,
      currency: facts.currency,
    })
    .onConflictDoNothing({ target: invoices.chargeId })
    .returning();
  // A conflict means another run inserted it first: continue from its row.
  const row = inserted ?? (await findRow(ctx, facts.chargeId));
  if (!row) throw new Error(`invoice row of charge ${facts.chargeId} vanished`);
  return row;
}

async function outcomeOfRow(ctx: Pick<EngineContext, "db">, chargeId: string): Promise<InvoiceOutcome> {
  const row = await findRow(ctx, chargeId);
  const done = row && settled(row);
  if (!done) throw new Error(`invoice of charge ${chargeId} is neither pending nor settled`);
  return done;
}

function eventSubjects(facts: ChargeFacts) {
  return { subscriptionId: facts.subscriptionId, customerId: facts.customerId, chargeId: facts.chargeId };
}

async function settleCreated(
  ctx: EngineContext,
  facts: ChargeFacts,
  row: InvoiceRow,
  invoice: GatewayInvoice,
): Promise<InvoiceOutcome> {
  const now = ctx.clock.now();
  const number = invoice.number ?? facts.chargeId;
  const link = invoice.link ?? null;
  await ctx.db.transaction(async (tx) => {
    // Overwrites an "unconfirmed" settlement of a concurrent run: this reply has the real id and link.
    await tx
      .update(invoices)
      .set({
        status: "created",
        gatewayInvoiceId: invoice.id,
        number,
        link,
        lastError: null,
        createdAtGateway: now.toJSDate(),
      })
      .where(and(eq(invoices.id, row.id), ne(invoices.status, "created")));
    await recordEvent(tx, {
      type: EVENT_TYPES.invoiceCreated,
      actor: ACTOR,
      occurredAt: now,
      ...eventSubjects(facts),
      data: {
        invoice_id: row.id,
        gateway_invoice_id: invoice.id,
        number,
        link,
        amount_minor: facts.amountMinor,
        currency: facts.currency,
        confirmed: true,
      },
    });
  });
  ctx.logger.info({ chargeId: facts.chargeId, gatewayInvoiceId: invoice.id }, "invoice created");
  return {
    kind: "created",
    invoiceId: row.id,
    gatewayInvoiceId: invoice.id,
    number,
    link,
    alreadyCreated: false,
  };
}

/**
 * Closes a still-pending invoice row as failed, with the event that says why, in one transaction.
 * False when another run settled the row first (it is no longer pending).
 */
async function closePending(
  ctx: EngineContext,
  facts: ChargeFacts,
  row: InvoiceRow,
  reason: string,
  event: Pick<EventInput, "type" | "occurredAt" | "data">,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(invoices)
      .set({ status: "failed", lastError: reason })
      .where(and(eq(invoices.id, row.id), eq(invoices.status, "pending")))
      .returning({ id: invoices.id });
    if (!updated) return false;
    await recordEvent(tx, { ...event, actor: ACTOR, ...eventSubjects(facts) });
    return true;
  });
}

async function settleUnconfirmed(
  ctx: EngineContext,
  facts: ChargeFacts,
  row: InvoiceRow,
): Promise<InvoiceOutcome> {
  const now = ctx.clock.now();
  const number = row.number ?? facts.chargeId;
  const reason =
    `the gateway already holds invoice number ${number} (an earlier request was created and its reply lost); ` +
    "its gateway id and link are unknown: look it up in the merchant account";
  const recorded = await closePending(ctx, facts, row, reason, {
    type: EVENT_TYPES.invoiceCreated,
    occurredAt: now,
    data: {
      invoice_id: row.id,
      gateway_invoice_id: null,
      number,
      link: null,
      amount_minor: facts.amountMinor,
      currency: facts.currency,
      confirmed: false,
    },
  });
  if (!recorded) return outcomeOfRow(ctx, facts.chargeId);
  ctx.logger.warn(
    { chargeId: facts.chargeId, number },
    "invoice exists at the gateway but its reply was lost",
  );
  return { kind: "unconfirmed", invoiceId: row.id, number };
}

async function settleFailed(
  ctx: EngineContext,
  facts: ChargeFacts,
  row: InvoiceRow,
  reason: string,
): Promise<InvoiceOutcome> {
  const recorded = await closePending(ctx, facts, row, reason, {
    type: "invoice.failed",
    occurredAt: ctx.clock.now(),
    data: { invoice_id: row.id, number: row.number, reason, attempts: row.attempts },
  });
  if (!recorded) return outcomeOfRow(ctx, facts.chargeId);
  ctx.logger.error({ chargeId: facts.chargeId, reason }, "invoice not created");
  return { kind: "failed", invoiceId: row.id, reason };
}

function closeAsNotOwed(
  ctx: EngineContext,
  facts: ChargeFacts,
  row: InvoiceRow,
  reason: string,
): Promise<InvoiceOutcome> {
  const note =
    row.attempts > 0
      ? `${reason}; an earlier attempt may have created invoice number ${row.number} at the gateway: void it there`
      : reason;
  return settleFailed(ctx, facts, row, note);
}
