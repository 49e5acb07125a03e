import type { Command } from "commander";
import { cancelSubscription, resumeSubscription } from "../../cancellation/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields } from "../output.js";

/**
 * `billing subscriptions cancel` and `resume`: they need the engine (a cancellation's token
 * deactivations go through the queues).
 */
export async function cancel(
  cli: Cli,
  id: string,
  options: { atPeriodEnd?: boolean },
  command: Command,
): Promise<void> {
  const result = await cli.withEngine((ctx) =>
    cancelSubscription(ctx, {
      subscriptionId: id,
      actor: CLI_ACTOR,
      mode: options.atPeriodEnd ? "at_period_end" : "immediately",
    }),
  );
  const shown = {
    id: result.subscriptionId,
    status: result.status,
    cancel_at_period_end: result.cancelAtPeriodEnd,
    effective_at: result.effectiveAt.toISO(),
    unchanged: result.unchanged,
    canceled_charge_ids: result.canceledChargeIds,
    token_deactivations: result.tokenDeactivations,
  };
  cli.output(command).result(shown, () => fields(shown));
}

export async function resume(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const result = await cli.withEngine((ctx) =>
    resumeSubscription(ctx, { subscriptionId: id, actor: CLI_ACTOR }),
  );
  const shown = {
    id: result.subscriptionId,
    next_billing_at: result.nextBillingAt.toISO(),
    unchanged: result.unchanged,
  };
  cli.output(command).result(shown, () => fields(shown));
}
