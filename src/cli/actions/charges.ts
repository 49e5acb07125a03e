import type { Command } from "commander";
import type { ChargeState } from "../../billing/index.js";
import type { Config } from "../../config/index.js";
import { toDecimalString } from "../../money/index.js";
// The modules themselves, not the resources index: a read loads what it reads.
import { type ChargeBody, presentCharge } from "../../resources/charge.js";
import { findCharge, listCharges } from "../../resources/charge-reads.js";
import type { ChargeRow } from "../../resources/charge-rows.js";
import type { Cli } from "../cli.js";
import { linkSigner } from "../link-signer.js";
import { fields, type Output, table } from "../output.js";
import { allPages } from "../paging.js";

/**
 * `billing charges list|show`: reads, needing the database alone (collection is apart: the engine).
 * --json prints each charge as the merchant API does (src/resources/charge.ts); a person reads the
 * same charge with its amounts as decimals beside the currency.
 */

/**
 * The charges as shown, each with its payment link while it awaits payment by one. The token key
 * that signs the links is read only when a charge has one; without a key, a note says why none is
 * shown.
 */
async function presentAll(config: Config, rows: readonly ChargeRow[], output: Output) {
  const withLinks = rows.some((row) => row.status === "awaiting_payment");
  const signer = withLinks ? await linkSigner(config) : null;
  if (withLinks && signer === null) {
    output.note(
      "note: payment links are not shown: no token key to sign them with (TOKEN_ENCRYPTION_KEY, or the running engine's TOKEN_DEV_KEY_FILE)",
    );
  }
  return rows.map((row) => presentCharge(row, signer));
}

/**
 * A charge for a person: the API's, its money as decimal strings (in their places) with the
 * currency and the refunded amount after them.
 */
function forPerson(charge: ChargeBody) {
  const { currency } = charge.amount;
  return {
    ...charge,
    amount: charge.amount.amount,
    discount: charge.discount.amount,
    credit: charge.credit.amount,
    currency,
    refunded: toDecimalString(charge.refunded_minor, currency),
  };
}

export async function list(
  cli: Cli,
  options: { subscription?: string; status?: ChargeState },
  command: Command,
): Promise<void> {
  const output = cli.output(command);
  const shown = await cli.withDatabase(async ({ db, config }) => {
    const rows = await allPages(async (after) => {
      const page = await listCharges(db, {
        limit: 100,
        starting_after: after,
        subscription_id: options.subscription,
        status: options.status,
      });
      return { rows: page.data, next: page.has_more ? (page.data.at(-1)?.id ?? null) : null };
    });
    return presentAll(config, rows, output);
  });
  output.result({ data: shown }, () =>
    table(shown.map(forPerson), [
      "id",
      "subscription_id",
      "status",
      "amount",
      "currency",
      "refund_status",
      "refunded",
      "attempt_count",
      "period_start",
    ]),
  );
}

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const output = cli.output(command);
  const [shown] = await cli.withDatabase(async ({ db, config }) =>
    presentAll(config, [await findCharge(db, id)], output),
  );
  const { attempts, ...charge } = forPerson(shown!);
  output.result(shown, () =>
    [
      fields(charge),
      "",
      "attempts:",
      table(attempts, ["attempt", "order_id", "status", "transaction_id", "decline_code", "duplicate"]),
    ].join("\n"),
  );
}
