import type { Command } from "commander";
import {
  AddonInputError,
  archiveAddon,
  createAddon,
  listAddons,
  listSubscriptionAddons,
  removeSubscriptionAddon,
  type StoredAddon,
  type SubscriptionAddon,
  setSubscriptionAddon,
} from "../../addons/index.js";
import { type PriceModelName, priceOf } from "../../billing/index.js";
import { toDecimalString } from "../../money/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { fields, table } from "../output.js";
import { allPages } from "../paging.js";
import type { TierOption } from "../tier-option.js";

/**
 * `billing addons …` and `billing subscriptions addons …`, through the add-on services. A bad field
 * of a new add-on is named by the option that carries it (a tier by its place among the --tier
 * options, 1 the first); a refusal is printed as the service words it.
 */

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** An add-on's price as the CLI prints a plan's: decimals in its currency, minor units beside. */
function presentPrice(addon: StoredAddon) {
  const { price } = addon;
  const { minor, currency } = addon.amount;
  return {
    price_model: price.model,
    amount: toDecimalString(minor, currency),
    amount_minor: minor,
    currency,
    tiers:
      price.model === "tiered" || price.model === "volume"
        ? price.tiers.map((tier) => ({
            up_to: tier.upTo,
            unit_amount: toDecimalString(tier.unitAmountMinor, currency),
            flat_amount: toDecimalString(tier.flatAmountMinor, currency),
          }))
        : null,
    package_size: price.model === "package" ? price.packageSize : null,
  };
}

function presentAddon(addon: StoredAddon) {
  return {
    id: addon.id,
    code: addon.code,
    name: addon.name,
    ...presentPrice(addon),
    archived: addon.archivedAt !== null,
    created_at: iso(addon.createdAt),
  };
}

function presentSubscriptionAddon(row: SubscriptionAddon) {
  const { addon } = row;
  const periodMinor = priceOf(addon.price, row.quantity);
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    code: addon.code,
    name: addon.name,
    quantity: row.quantity,
    ...presentPrice(addon),
    period_amount: toDecimalString(periodMinor, addon.amount.currency),
    period_amount_minor: periodMinor,
    added_at: iso(row.addedAt),
    removed_at: iso(row.removedAt),
  };
}

/** The option each field comes from: tiers.1.up_to is "--tier #2 UP_TO", package_size "--package-size". */
function optionOf(field: string): string {
  const tier = /^tiers\.(\d+)(?:\.(up_to|unit_amount|flat_amount))?$/.exec(field);
  if (tier) return `--tier #${Number(tier[1]) + 1}${tier[2] ? ` ${tier[2].toUpperCase()}` : ""}`;
  if (field === "tiers") return "--tier";
  return `--${field.replaceAll("_", "-")}`;
}

function asOptions(error: AddonInputError): CliError {
  const lines = error.issues.map(({ field, message }) => {
    const rest = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
    return `${optionOf(field)}: ${rest}`;
  });
  return new CliError(lines.join("\n"), EXIT.usage);
}

export async function create(
  cli: Cli,
  options: {
    code: string;
    name: string;
    amount?: string;
    currency: string;
    priceModel: PriceModelName;
    tier?: TierOption[];
    packageSize?: number;
  },
  command: Command,
): Promise<void> {
  const body = {
    code: options.code,
    name: options.name,
    // Options left out stay out of the body: the service says which the price model needs.
    ...(options.amount === undefined ? {} : { amount: options.amount }),
    currency: String(options.currency).toUpperCase(),
    price_model: options.priceModel,
    ...(options.tier === undefined ? {} : { tiers: options.tier }),
    ...(options.packageSize === undefined ? {} : { package_size: options.packageSize }),
  };
  const addon = await cli
    .withDatabase((ctx) => createAddon(ctx, body, { actor: CLI_ACTOR }))
    .catch((error: unknown) => {
      throw error instanceof AddonInputError ? asOptions(error) : error;
    });
  const shown = presentAddon(addon);
  cli.output(command).result(shown, () => fields(shown));
}

export async function list(cli: Cli, options: { archived?: boolean }, command: Command): Promise<void> {
  const addons = await cli.withDatabase((ctx) =>
    allPages(async (after) => {
      const page = await listAddons(ctx, { includeArchived: Boolean(options.archived), limit: 500, after });
      return { rows: page.addons, next: page.nextCursor };
    }),
  );
  const shown = addons.map(presentAddon);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, ["code", "name", "price_model", "amount", "currency", "package_size", "archived"]),
    );
}

export async function archive(cli: Cli, code: string, _options: unknown, command: Command): Promise<void> {
  const addon = await cli.withDatabase((ctx) => archiveAddon(ctx, { idOrCode: code, actor: CLI_ACTOR }));
  if (!addon) throw new CliError(`no add-on ${code}`);
  const shown = presentAddon(addon);
  cli.output(command).result(shown, () => fields(shown));
}

export async function setOnSubscription(
  cli: Cli,
  id: string,
  code: string,
  options: { quantity: number },
  command: Command,
): Promise<void> {
  const result = await cli.withDatabase((ctx) =>
    setSubscriptionAddon(ctx, {
      subscriptionId: id,
      addon: code,
      quantity: options.quantity,
      actor: CLI_ACTOR,
    }),
  );
  const shown = {
    ...presentSubscriptionAddon(result.subscriptionAddon),
    change: result.change,
    from_quantity: result.fromQuantity,
  };
  cli.output(command).result(shown, () => fields(shown));
}

export async function removeFromSubscription(
  cli: Cli,
  id: string,
  code: string,
  _options: unknown,
  command: Command,
): Promise<void> {
  const removed = await cli.withDatabase((ctx) =>
    removeSubscriptionAddon(ctx, { subscriptionId: id, addon: code, actor: CLI_ACTOR }),
  );
  const shown = presentSubscriptionAddon(removed);
  cli.output(command).result(shown, () => fields(shown));
}

export async function listOnSubscription(
  cli: Cli,
  id: string,
  _options: unknown,
  command: Command,
): Promise<void> {
  const rows = await cli.withDatabase((ctx) => listSubscriptionAddons(ctx, id));
  if (!rows) throw new CliError(`no subscription ${id}`);
  const shown = rows.map(presentSubscriptionAddon);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, ["code", "name", "quantity", "price_model", "period_amount", "currency", "added_at"]),
    );
}
