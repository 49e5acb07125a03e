import type { Command } from "commander";
import type { CollectionMethod } from "../../billing/index.js";
import { archivePlan, type StoredPlan, unarchivePlan, updatePlan } from "../../plans/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { fields } from "../output.js";
import { presentPlan } from "../present.js";

/**
 * `billing plans update|archive|unarchive`: what may change on a plan, through the plans service
 * (billing/plan-update.ts says what, and why never its price). A bad value is named by its option.
 */

interface UpdateOptions {
  name?: string;
  trialDays?: number;
  /** false: --no-product-id. */
  productId?: string | false;
  collectionMethod?: CollectionMethod;
  trialWithoutCard?: boolean;
}

function print(cli: Cli, id: string, plan: StoredPlan | null, command: Command): void {
  if (!plan) throw new CliError(`no plan with id ${id}`);
  const shown = presentPlan(plan);
  cli.output(command).result(shown, () => fields(shown));
}

export async function update(cli: Cli, id: string, options: UpdateOptions, command: Command): Promise<void> {
  const { name, trialDays, productId, collectionMethod, trialWithoutCard } = options;
  if (
    [name, trialDays, productId, collectionMethod, trialWithoutCard].every((value) => value === undefined)
  ) {
    throw new CliError(
      "nothing to change: give --name, --trial-days, --product-id (or --no-product-id), --collection-method or --(no-)trial-without-card",
      EXIT.usage,
    );
  }
  const body = {
    name,
    trial_days: trialDays,
    product_id: productId === false ? null : productId,
    collection_method: collectionMethod,
    trial_without_card: trialWithoutCard,
  };
  const plan = await cli.withDatabase((ctx) => updatePlan(ctx, id, body, { actor: CLI_ACTOR }));
  print(cli, id, plan, command);
}

export async function archive(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const plan = await cli.withDatabase((ctx) => archivePlan(ctx, { id, actor: CLI_ACTOR }));
  print(cli, id, plan, command);
}

export async function unarchive(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const plan = await cli.withDatabase((ctx) => unarchivePlan(ctx, { id, actor: CLI_ACTOR }));
  print(cli, id, plan, command);
}
