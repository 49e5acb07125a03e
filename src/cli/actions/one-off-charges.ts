import type { Command } from "commander";
import { toDecimalString } from "../../money/index.js";
import {
  cancelOneOffCharge,
  createOneOffCharge,
  listOneOffCharges,
  type OneOffCharge,
  OneOffInputError,
} from "../../one-off-charges/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { fields, table } from "../output.js";

/** `billing subscriptions charge-once|one-off-charges|cancel-one-off`: the engine collects them. */

function shown(item: OneOffCharge & { canceled?: boolean }) {
  return {
    id: item.id,
    subscription_id: item.subscriptionId,
    description: item.description,
    unit_amount: toDecimalString(item.unitAmountMinor, item.currency),
    quantity: item.quantity,
    amount: toDecimalString(item.unitAmountMinor * item.quantity, item.currency),
    currency: item.currency,
    collect: item.collect,
    charge_id: item.chargeId,
    status: item.canceled ? "canceled" : item.chargeId ? "billed" : "waiting",
  };
}

export async function create(
  cli: Cli,
  id: string,
  options: { description: string; amount: string; quantity?: number; nextBill?: boolean },
  command: Command,
): Promise<void> {
  const created = await cli
    .withEngine((ctx) =>
      createOneOffCharge(ctx, {
        subscriptionId: id,
        body: {
          description: options.description,
          amount: options.amount,
          quantity: options.quantity,
          collect: options.nextBill ? "next_bill" : "now",
        },
        actor: CLI_ACTOR,
      }),
    )
    .catch((error: unknown) => {
      if (!(error instanceof OneOffInputError)) throw error;
      const [issue] = error.issues;
      throw new CliError(`--${issue?.field ?? "amount"}: ${issue?.message ?? error.message}`, EXIT.usage);
    });
  const view = shown(created);
  cli.output(command).result(view, () => fields(view));
}

export async function list(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const rows = (await cli.withEngine((ctx) => listOneOffCharges(ctx, id))).map(shown);
  cli
    .output(command)
    .result({ data: rows }, () =>
      table(rows, ["id", "description", "quantity", "amount", "collect", "status", "charge_id"]),
    );
}

export async function cancel(
  cli: Cli,
  id: string,
  oneOffId: string,
  _options: unknown,
  command: Command,
): Promise<void> {
  const canceled = await cli.withEngine((ctx) => cancelOneOffCharge(ctx, { subscriptionId: id, oneOffId }));
  const view = shown({ ...canceled, canceled: true });
  cli.output(command).result(view, () => fields(view));
}
