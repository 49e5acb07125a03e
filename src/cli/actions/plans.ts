import type { Command } from "commander";
import type { CollectionMethod, IntervalUnit, PriceModelName } from "../../billing/index.js";
import { createPlan, getPlan, listPlans, PlanInputError } from "../../plans/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError } from "../errors.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentPlan } from "../present.js";
import type { TierOption } from "../tier-option.js";

/**
 * `billing plans …`: the plan catalogue, through the plans service. A bad field is named by the
 * option that carries it; a bad tier by its place among the --tier options (1 is the first).
 */

/** The option each field of the tiers comes from: tiers.1.up_to is "--tier #2 UP_TO". */
function tierFieldOptions(count: number): Record<string, string> {
  const options: Record<string, string> = { tiers: "--tier" };
  for (let i = 0; i < count; i += 1) {
    options[`tiers.${i}`] = `--tier #${i + 1}`;
    options[`tiers.${i}.up_to`] = `--tier #${i + 1} UP_TO`;
    options[`tiers.${i}.unit_amount`] = `--tier #${i + 1} UNIT_AMOUNT`;
    options[`tiers.${i}.flat_amount`] = `--tier #${i + 1} FLAT_AMOUNT`;
  }
  return options;
}

export async function create(
  cli: Cli,
  options: {
    name: string;
    amount?: string;
    currency: string;
    priceModel: PriceModelName;
    tier?: TierOption[];
    packageSize?: number;
    interval: IntervalUnit;
    intervalCount: number;
    trialDays: number;
    billingMode: "recurring" | "autosave";
    collectionMethod?: CollectionMethod;
    trialWithoutCard?: boolean;
  },
  command: Command,
): Promise<void> {
  const body = {
    name: options.name,
    // Options left out stay out of the body: the service says which the price model needs.
    ...(options.amount === undefined ? {} : { amount: options.amount }),
    currency: String(options.currency).toUpperCase(),
    price_model: options.priceModel,
    ...(options.tier === undefined ? {} : { tiers: options.tier }),
    ...(options.packageSize === undefined ? {} : { package_size: options.packageSize }),
    interval: options.interval,
    interval_count: options.intervalCount,
    trial_days: options.trialDays,
    billing_mode: options.billingMode,
    ...(options.collectionMethod === undefined ? {} : { collection_method: options.collectionMethod }),
    trial_without_card: Boolean(options.trialWithoutCard),
  };
  const plan = await cli
    .withDatabase((ctx) => createPlan(ctx, body, { actor: CLI_ACTOR }))
    .catch(async (error: unknown) => {
      if (!(error instanceof PlanInputError)) throw error;
      const { toCliError } = await import("../failures.js");
      throw toCliError(error, tierFieldOptions(options.tier?.length ?? 0));
    });
  const shown = presentPlan(plan);
  cli.output(command).result(shown, () => fields(shown));
}

export async function list(cli: Cli, options: { archived?: boolean }, command: Command): Promise<void> {
  const plans = await cli.withDatabase((ctx) =>
    allPages(async (after) => {
      const page = await listPlans(ctx, {
        includeArchived: Boolean(options.archived),
        limit: 500,
        after,
      });
      return { rows: page.plans, next: page.nextCursor };
    }),
  );
  const shown = plans.map(presentPlan);
  const columns = [
    "id",
    "name",
    "price_model",
    "amount",
    "currency",
    "interval",
    "interval_count",
    "trial_days",
    "billing_mode",
    "collection_method",
    "trial_without_card",
  ] as const;
  // With --archived the list mixes both, so it says which plans are archived, and since when.
  cli
    .output(command)
    .result({ data: shown }, () => table(shown, options.archived ? [...columns, "archived_at"] : columns));
}

export async function show(cli: Cli, id: string, _options: unknown, command: Command): Promise<void> {
  const plan = await cli.withDatabase((ctx) => getPlan(ctx, id));
  if (!plan) throw new CliError(`no plan with id ${id}`);
  const shown = presentPlan(plan);
  cli.output(command).result(shown, () => fields(shown));
}
