import type { Command } from "commander";
import { type ReconcileHeldResult, reconcileHeldCharge } from "../../charging/index.js";
import { type RetryNowResult, retryChargeNow } from "../../dunning/index.js";
import { refundCharge } from "../../refunds/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields } from "../output.js";
import { presentRefund } from "../present.js";

/** `billing charges retry|reconcile|refund`: they call the gateway, so they need the engine. */

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
function presentReconcile(result: ReconcileHeldResult) {
  const { outcome, ...rest } = result;
  return { outcome, ...snakeCase(rest) };
}

export async function retry(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const shown = presentRetry(await cli.withEngine((ctx) => retryChargeNow(ctx, id)));
  cli.output(command).result(shown, () => fields(shown));
}

export async function reconcile(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const shown = presentReconcile(
    await cli.withEngine((ctx) => reconcileHeldCharge(ctx, id, { actor: CLI_ACTOR })),
  );
  cli.output(command).result(shown, () => fields(shown));
}

export async function refund(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const refund = await cli.withEngine((ctx) => refundCharge(ctx, { chargeId: id, actor: CLI_ACTOR }));
  const shown = presentRefund(refund);
  cli.output(command).result(shown, () => fields(shown));
}
