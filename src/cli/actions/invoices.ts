import type { Command } from "commander";
// The module itself, not the invoicing index: a read loads what it reads.
import { findInvoice, type InvoiceView, listInvoices } from "../../invoicing/invoice-reads.js";
import { toDecimalString } from "../../money/index.js";
import type { Cli } from "../cli.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";

/** `billing invoices list|show`: the gateway invoices of charges whose dunning ended, with why one failed (last_error). */
function presentInvoice(row: InvoiceView) {
  return {
    id: row.id,
    charge_id: row.chargeId,
    subscription_id: row.subscriptionId,
    status: row.status,
    number: row.number,
    link: row.link,
    amount: toDecimalString(row.amountMinor, row.currency),
    amount_minor: row.amountMinor,
    currency: row.currency,
    gateway_invoice_id: row.gatewayInvoiceId,
    attempts: row.attempts,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
  };
}

export async function list(cli: Cli, options: { subscription?: string }, command: Command): Promise<void> {
  const rows = await cli.withDatabase(({ db }) =>
    allPages(async (after) => {
      const page = await listInvoices(db, {
        limit: 100,
        starting_after: after,
        subscription_id: options.subscription,
      });
      return { rows: page.data, next: page.has_more ? (page.data.at(-1)?.id ?? null) : null };
    }),
  );
  const shown = rows.map(presentInvoice);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, ["id", "charge_id", "status", "amount", "currency", "gateway_invoice_id", "last_error"]),
    );
}

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const shown = presentInvoice(await cli.withDatabase(({ db }) => findInvoice(db, id)));
  cli.output(command).result(shown, () => fields(shown));
}
