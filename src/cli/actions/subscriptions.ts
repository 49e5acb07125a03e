import type { Command } from "commander";
import type { SubscriptionState } from "../../billing/index.js";
import { toDecimalString } from "../../money/index.js";
// The modules themselves, not the resources index: a read loads what it reads.
import { presentSubscription } from "../../resources/subscription.js";
import { findSubscription, listSubscriptions } from "../../resources/subscription-reads.js";
import type { Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";

/**
 * `billing subscriptions list|show|upcoming`: reads, needing the database alone (cancel is apart:
 * the engine). --json prints each subscription as the merchant API does (src/resources/subscription.ts).
 */

export async function list(
  cli: Cli,
  options: { status?: SubscriptionState; customer?: string },
  command: Command,
): Promise<void> {
  const rows = await cli.withDatabase(({ db }) =>
    allPages(async (after) => {
      const page = await listSubscriptions(db, {
        limit: 100,
        starting_after: after,
        status: options.status,
        customer_id: options.customer,
      });
      return { rows: page.data, next: page.has_more ? (page.data.at(-1)?.id ?? null) : null };
    }),
  );
  const shown = rows.map(presentSubscription);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, [
        "id",
        "status",
        "collection_method",
        "customer_id",
        "plan_id",
        "current_period_end",
        "next_billing_at",
      ]),
    );
}

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const shown = presentSubscription(await cli.withDatabase(({ db }) => findSubscription(db, id)));
  cli.output(command).result(shown, () => fields(shown));
}

/** The next charge as the tick will create it (pricing/upcoming-charge.ts); nothing is written. */
export async function upcoming(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  // Loaded here: list and show need the database alone, not what prices a charge.
  const { upcomingCharge } = await import("../../upcoming/index.js");
  const next = await cli.withDatabase(({ db, config }) =>
    upcomingCharge(db.$client, id, {
      taxRateBp: config.TAX_RATE_PERCENT,
      usageGraceHours: config.USAGE_GRACE_HOURS,
    }),
  );
  if ("reason" in next) throw new CliError(next.detail, EXIT.failed);
  const money = (minor: number) => `${toDecimalString(minor, next.currency)} ${next.currency}`;
  const shown = {
    subscription_id: next.subscriptionId,
    plan_id: next.planId,
    quantity: next.quantity,
    period_start: next.periodStart.toUTC().toISO(),
    period_end: next.periodEnd.toUTC().toISO(),
    lines: next.lines.map((line) => ({
      kind: line.kind,
      description: line.description,
      quantity: line.quantity,
      amount: money(line.amountMinor),
    })),
    subtotal: money(next.subtotalMinor),
    discount: money(next.charge.discountMinor),
    credit: money(next.charge.creditAppliedMinor),
    total: money(next.charge.amountMinor),
    tax_included: money(next.taxMinor),
  };
  cli.output(command).result(shown, () =>
    fields({
      ...shown,
      lines: shown.lines.map((line) => `${line.description} × ${line.quantity}: ${line.amount}`).join("; "),
    }),
  );
}
