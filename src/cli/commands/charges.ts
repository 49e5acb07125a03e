import { type Command, Option } from "commander";
import { findCharge, listCharges } from "../../api/services/charges.js";
import { CHARGE_STATES } from "../../billing/index.js";
import { type ReconcileHeldResult, reconcileHeldCharge } from "../../charging/index.js";
import { type RetryNowResult, retryChargeNow } from "../../dunning/index.js";
import { refundCharge } from "../../refunds/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { uuid } from "../options.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentCharge, presentRefund } from "../present.js";

const snakeCase = (fields: object) =>
  Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      value,
    ]),
  );

/** A retry's result in the CLI's snake_case; `outcome` is the result's kind. */
export function presentRetry(result: RetryNowResult) {
  const { kind, ...rest } = result;
  return { outcome: kind, ...snakeCase(rest) };
}

/** A reconcile's result in the CLI's snake_case. */
export function presentReconcile(result: ReconcileHeldResult) {
  const { outcome, ...rest } = result;
  return { outcome, ...snakeCase(rest) };
}

export function registerCharges(program: Command, cli: Cli): void {
  const charges = program
    .command("charges")
    .description("what subscriptions owe per period, and its collection");

  charges
    .command("list")
    .description("list charges, oldest first")
    .option("--subscription <id>", "only this subscription's", uuid)
    .addOption(new Option("--status <status>", "only this status").choices(CHARGE_STATES))
    .action(async (options, command: Command) => {
      const rows = await cli.withDatabase(({ db }) =>
        allPages(async (after) => {
          const page = await listCharges(db, {
            limit: 100,
            starting_after: after,
            subscription_id: options.subscription,
            status: options.status,
          });
          return { rows: page.data, next: page.has_more ? (page.data.at(-1)?.id ?? null) : null };
        }),
      );
      const shown = rows.map(presentCharge);
      cli
        .output(command)
        .result({ data: shown }, () =>
          table(shown, [
            "id",
            "subscription_id",
            "status",
            "amount",
            "currency",
            "attempt_count",
            "period_start",
          ]),
        );
    });

  charges
    .command("show")
    .description("show one charge")
    .argument("<id>", "charge id", uuid)
    .action(async (id: string, _options, command: Command) => {
      const shown = presentCharge(await cli.withDatabase(({ db }) => findCharge(db, id)));
      const { attempts, ...charge } = shown;
      cli
        .output(command)
        .result(shown, () =>
          [
            fields(charge),
            "",
            "attempts:",
            table(attempts, ["attempt", "order_id", "status", "transaction_id", "decline_code", "duplicate"]),
          ].join("\n"),
        );
    });

  charges
    .command("retry")
    .description(
      "collect a charge now, before its scheduled retry (an uncollectible one too, e.g. after a new card)",
    )
    .argument("<id>", "charge id", uuid)
    .action(async (id: string, _options, command: Command) => {
      const shown = presentRetry(await cli.withEngine((ctx) => retryChargeNow(ctx, id)));
      cli.output(command).result(shown, () => fields(shown));
    });

  charges
    .command("reconcile")
    .description(
      "settle a charge held for review (needs_review) from CheckStatus on its attempt; never charges the card",
    )
    .argument("<id>", "charge id", uuid)
    .action(async (id: string, _options, command: Command) => {
      const shown = presentReconcile(
        await cli.withEngine((ctx) => reconcileHeldCharge(ctx, id, { actor: CLI_ACTOR })),
      );
      cli.output(command).result(shown, () => fields(shown));
    });

  charges
    .command("refund")
    .description("return the whole payment of a paid charge through the gateway")
    .argument("<id>", "charge id", uuid)
    .action(async (id: string, _options, command: Command) => {
      const refund = await cli.withEngine((ctx) => refundCharge(ctx, { chargeId: id, actor: CLI_ACTOR }));
      const shown = presentRefund(refund);
      cli.output(command).result(shown, () => fields(shown));
    });
}
