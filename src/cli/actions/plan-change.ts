import type { Command } from "commander";
import type { ProrationBehavior } from "../../billing/index.js";
import { toDecimalString } from "../../money/index.js";
import { cancelScheduledPlanChange, changePlan } from "../../plan-changes/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { fields } from "../output.js";

/** `billing subscriptions change-plan` and `cancel-plan-change`: the engine collects the difference. */
export async function change(
  cli: Cli,
  id: string,
  options: { plan?: string; quantity?: number; proration?: ProrationBehavior },
  command: Command,
): Promise<void> {
  if (options.plan === undefined && options.quantity === undefined) {
    throw new CliError("--plan or --quantity: give at least one", EXIT.usage);
  }
  const result = await cli.withEngine((ctx) =>
    changePlan(ctx, {
      subscriptionId: id,
      planId: options.plan,
      quantity: options.quantity,
      proration: options.proration,
      actor: CLI_ACTOR,
    }),
  );
  const money = (minor: number) => toDecimalString(minor, result.currency);
  const shown = {
    subscription_id: result.subscriptionId,
    plan_change_id: result.planChangeId,
    status: result.status,
    proration: result.proration,
    from_plan_id: result.fromPlanId,
    to_plan_id: result.toPlanId,
    from_quantity: result.fromQuantity,
    to_quantity: result.toQuantity,
    effective_at: result.effectiveAt.toUTC().toISO(),
    currency: result.currency,
    credit: money(result.creditMinor),
    debit: money(result.debitMinor),
    charge_id: result.chargeId,
    charge_amount: result.chargeId ? money(result.chargeAmountMinor) : null,
    credit_balance: money(result.creditBalanceMinor),
  };
  cli.output(command).result(shown, () => fields(shown));
}

export async function cancelScheduled(
  cli: Cli,
  id: string,
  _options: object,
  command: Command,
): Promise<void> {
  const result = await cli.withEngine((ctx) =>
    cancelScheduledPlanChange(ctx, { subscriptionId: id, actor: CLI_ACTOR }),
  );
  const shown = {
    subscription_id: id,
    plan_change_id: result.planChangeId,
    canceled_at: result.canceledAt.toUTC().toISO(),
  };
  cli.output(command).result(shown, () => fields(shown));
}
