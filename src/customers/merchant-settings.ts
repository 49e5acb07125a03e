import { sql } from "drizzle-orm";
import type { MessageKind } from "../billing/index.js";
import type { Db } from "../db/index.js";
import { merchantSettings } from "../db/schema/index.js";

/**
 * Rule: merchant_settings row 1 is the configuration of the engine process that booted last. The
 * transactions that write receipts and customer messages (events/customer-outbox.ts) have no
 * configuration at hand, so every engine process writes these settings there when it boots, once
 * the database is migrated; a restart with new settings takes effect from its first transaction.
 */
export interface MerchantSettings {
  /** Tax included in prices, in basis points (TAX_RATE_PERCENT). */
  readonly taxRateBp: number;
  readonly taxLabel: string;
  /** MESSAGES_DISABLED as message kinds: never written to the customer outbox. */
  readonly messagesDisabled: readonly MessageKind[];
  /** GATEWAY_RECORD_PAID_INVOICES: each paid charge also becomes a paid invoice at the gateway. */
  readonly recordPaidInvoices: boolean;
}

export async function saveMerchantSettings(db: Db, settings: MerchantSettings): Promise<void> {
  const values = {
    taxRateBp: settings.taxRateBp,
    taxLabel: settings.taxLabel,
    messagesDisabled: [...settings.messagesDisabled],
    recordPaidInvoices: settings.recordPaidInvoices,
    updatedAt: sql`now()`,
  };
  await db
    .insert(merchantSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: merchantSettings.id, set: values });
}
