import type { Command } from "commander";
import type { CollectionMethod, IntervalUnit } from "../../billing/index.js";
import { createPlan, listPlans } from "../../plans/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import { presentPlan } from "../present.js";

/** `billing plans …`: the plan catalogue, through the plans service. */

export async function create(
  cli: Cli,
  options: {
    name: string;
    amount: string;
    currency: string;
    interval: IntervalUnit;
    intervalCount: number;
    trialDays: number;
    billingMode: "recurring" | "autosave";
    collectionMethod?: CollectionMethod;
    trialWithoutCard?: boolean;
  },
  command: Command,
): Promise<void> {
  const plan = await cli.withDatabase((ctx) =>
    createPlan(
      ctx,
      {
        name: options.name,
        amount: options.amount,
        currency: String(options.currency).toUpperCase(),
        interval: options.interval,
        interval_count: options.intervalCount,
        trial_days: options.trialDays,
        billing_mode: options.billingMode,
        ...(options.collectionMethod === undefined ? {} : { collection_method: options.collectionMethod }),
        trial_without_card: Boolean(options.trialWithoutCard),
      },
      { actor: CLI_ACTOR },
    ),
  );
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
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, [
        "id",
        "name",
        "amount",
        "currency",
        "interval",
        "interval_count",
        "trial_days",
        "collection_method",
        "trial_without_card",
      ]),
    );
}
