import { z } from "zod";
import { CHARGE_STATES } from "../../billing/index.js";
import { invoiceStatus } from "../../db/schema/index.js";
import type { InvoiceView } from "../../invoicing/index.js";
import { chargeSchema } from "../../resources/charge.js";
import { iso, moneySchema, pageOf, pageQuery, presentMoney, timestamp } from "./common.js";

/** The charge itself is src/resources/charge.ts, which webhooks and the CLI share; re-exported here. */
export { chargeSchema, presentCharge } from "../../resources/charge.js";

export const chargeListQuery = pageQuery.extend({
  subscription_id: z.uuid().optional(),
  status: z.enum(CHARGE_STATES).optional(),
});

export const chargePage = pageOf(chargeSchema);

export const invoiceSchema = z
  .object({
    id: z.uuid(),
    charge_id: z.uuid(),
    subscription_id: z.uuid(),
    status: z.enum(invoiceStatus.enumValues),
    number: z.string().nullable(),
    link: z.string().nullable().describe("The gateway's page for the invoice"),
    amount: moneySchema,
    gateway_invoice_id: z.number().int().nullable(),
    created_at: timestamp,
  })
  .meta({ id: "Invoice" });

export function presentInvoice(row: InvoiceView): z.infer<typeof invoiceSchema> {
  return {
    id: row.id,
    charge_id: row.chargeId,
    subscription_id: row.subscriptionId,
    status: row.status,
    number: row.number,
    link: row.link,
    amount: presentMoney(row.amountMinor, row.currency),
    gateway_invoice_id: row.gatewayInvoiceId,
    created_at: iso(row.createdAt),
  };
}

export const invoiceListQuery = pageQuery.extend({ subscription_id: z.uuid().optional() });

export const invoicePage = pageOf(invoiceSchema);
