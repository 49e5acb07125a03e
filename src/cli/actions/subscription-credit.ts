import type { Command } from "commander";
import { toDecimalString } from "../../money/index.js";
import { grantCredit } from "../../pricing/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields } from "../output.js";

/**
 * `billing subscriptions credit <id> --amount 10.00 --reason "…"`: credit a person gives the
 * customer, taken off the subscription's next charges, through the pricing service; the event it
 * records names the CLI and the reason. Prints the credit given and the balance after.
 */
export async function grant(
  cli: Cli,
  id: string,
  options: { amount: string; reason: string },
  command: Command,
): Promise<void> {
  const granted = await cli.withDatabase((ctx) =>
    grantCredit(ctx, {
      subscriptionId: id,
      amount: options.amount,
      reason: options.reason,
      actor: CLI_ACTOR,
    }),
  );
  const { currency } = granted;
  const shown = {
    subscription_id: granted.subscriptionId,
    granted: toDecimalString(granted.amountMinor, currency),
    granted_minor: granted.amountMinor,
    credit_balance: toDecimalString(granted.balanceMinor, currency),
    credit_balance_minor: granted.balanceMinor,
    currency,
    event_id: granted.eventId,
  };
  cli.output(command).result(shown, () => fields(shown));
}
