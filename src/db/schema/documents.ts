import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, smallint, text, uuid } from "drizzle-orm/pg-core";
import { charges, refunds } from "./billing.js";
import { customers } from "./catalog.js";
import {
  amountMinor,
  createdAt,
  currency,
  isCurrencyCode,
  rowId,
  timestamptz,
  updatedAt,
} from "./columns.js";
import { invoiceStatus, messageKind } from "./enums.js";

/**
 * The merchant's settings that documents and the customer outbox need inside the transactions that
 * write them (src/events/customer-outbox.ts), where no configuration is at hand: one row, written
 * from the environment when an engine process boots (TAX_RATE_PERCENT, TAX_LABEL, MESSAGES_DISABLED).
 */
export const merchantSettings = pgTable(
  "merchant_settings",
  {
    id: smallint("id").primaryKey().default(1),
    /** Tax included in every price, in basis points (1500 = 15 %); 0 prints no tax line. */
    taxRateBp: integer("tax_rate_bp").notNull().default(0),
    taxLabel: text("tax_label").notNull().default("VAT"),
    /** Message kinds the merchant sends itself from webhooks: never written to the outbox. */
    messagesDisabled: messageKind("messages_disabled").array().notNull().default(sql`'{}'`),
    /** Record each paid charge as a paid v1 invoice in the gateway account (GATEWAY_RECORD_PAID_INVOICES). */
    recordPaidInvoices: boolean("record_paid_invoices").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("merchant_settings_single_row", sql`${t.id} = 1`),
    check("merchant_settings_tax_rate_range", sql`${t.taxRateBp} between 0 and 10000`),
  ],
);

/**
 * Gap-free numbering: one row per series ('receipt', 'credit_note') holding the last number issued.
 * A document takes its number by updating this row in the transaction that records the payment or
 * the refund, so the row lock orders concurrent writers and a rolled-back transaction gives its
 * number back: numbers are never skipped and never reused.
 */
export const documentSeries = pgTable(
  "document_series",
  {
    series: text("series").primaryKey(),
    lastNumber: bigint("last_number", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("document_series_last_number_non_negative", sql`${t.lastNumber} >= 0`)],
);

/**
 * The receipt of a paid charge: numbered in the transaction that records the payment, one per
 * charge. Amount and tax rate are kept as issued, so a later change of settings never rewrites a
 * receipt the customer already has; the tax is included in the amount (prices are tax-inclusive).
 * No foreign keys (migration 0025): the one statement that writes receipts joins the charge and
 * its subscription for every row, and nothing deletes charges or customers; the two checks cost
 * the paying path about 10 µs a charge.
 */
export const receipts = pgTable(
  "receipts",
  {
    id: rowId(),
    number: bigint("number", { mode: "number" }).notNull().unique("receipts_number_key"),
    chargeId: uuid("charge_id").notNull().unique("receipts_charge_key"),
    customerId: uuid("customer_id").notNull(),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    taxRateBp: integer("tax_rate_bp").notNull(),
    taxLabel: text("tax_label").notNull(),
    /** Billing clock. */
    issuedAt: timestamptz("issued_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("receipts_customer_idx").on(t.customerId, t.issuedAt),
    check("receipts_number_positive", sql`${t.number} > 0`),
    check("receipts_amount_non_negative", sql`${t.amountMinor} >= 0`),
    check("receipts_currency_code", isCurrencyCode(t.currency)),
    check("receipts_tax_rate_range", sql`${t.taxRateBp} between 0 and 10000`),
  ],
);

/**
 * The credit note of a refund, in its own gap-free series: issued when the gateway accepts the
 * refund (completed or under processing), one per refund. A refund returns a whole payment.
 */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: rowId(),
    number: bigint("number", { mode: "number" }).notNull().unique("credit_notes_number_key"),
    refundId: uuid("refund_id")
      .notNull()
      .unique("credit_notes_refund_key")
      .references(() => refunds.id),
    chargeId: uuid("charge_id")
      .notNull()
      .references(() => charges.id),
    customerId: uuid("customer_id")
      .notNull()
      .references(() => customers.id),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    taxRateBp: integer("tax_rate_bp").notNull(),
    taxLabel: text("tax_label").notNull(),
    issuedAt: timestamptz("issued_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("credit_notes_charge_idx").on(t.chargeId),
    index("credit_notes_customer_idx").on(t.customerId, t.issuedAt),
    check("credit_notes_number_positive", sql`${t.number} > 0`),
    check("credit_notes_amount_positive", sql`${t.amountMinor} > 0`),
    check("credit_notes_currency_code", isCurrencyCode(t.currency)),
    check("credit_notes_tax_rate_range", sql`${t.taxRateBp} between 0 and 10000`),
  ],
);

/**
 * A paid charge to be shown in the merchant's gateway account as a paid v1 invoice with its
 * payment (GATEWAY_RECORD_PAID_INVOICES): written by the paying transaction, sent later and
 * retried from pending. Its failure is recorded here and never touches the charge. No foreign
 * key, as receipts: the receipts' statement writes it from the charge it joins.
 */
export const gatewayPaymentRecords = pgTable(
  "gateway_payment_records",
  {
    chargeId: uuid("charge_id").primaryKey(),
    status: invoiceStatus("status").notNull().default("pending"),
    gatewayInvoiceId: integer("gateway_invoice_id"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at"),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("gateway_payment_records_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending' and ${t.nextAttemptAt} is not null`),
    check("gateway_payment_records_attempts_non_negative", sql`${t.attempts} >= 0`),
    check(
      "gateway_payment_records_created_has_id",
      sql`${t.status} <> 'created' or ${t.gatewayInvoiceId} is not null`,
    ),
  ],
);
