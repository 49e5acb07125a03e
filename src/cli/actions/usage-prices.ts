import type { Command } from "commander";
import type { PriceModelName } from "../../billing/index.js";
import { toDecimalString } from "../../money/index.js";
import {
  listUsagePrices,
  removeUsagePrice,
  type StoredUsagePrice,
  setUsagePrice,
  setUsageThreshold,
  UsagePriceInputError,
} from "../../usage-billing/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { CliError, EXIT } from "../errors.js";
import { fields, table } from "../output.js";
import type { TierOption } from "../tier-option.js";

/**
 * `billing plans usage-prices …`, through the usage-billing service. A bad field is named by the
 * option that carries it (a tier by its place among the --tier options, 1 the first); a refusal
 * (a recurring plan, an archived or unknown meter) is printed as the service words it.
 */

function present(usagePrice: StoredUsagePrice) {
  const { price, currency } = usagePrice;
  return {
    plan_id: usagePrice.planId,
    meter: usagePrice.meterCode,
    meter_name: usagePrice.meterName,
    price_model: price.model,
    amount: toDecimalString(usagePrice.amountMinor, currency),
    amount_minor: usagePrice.amountMinor,
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
    created_at: usagePrice.createdAt.toISOString(),
  };
}

/** The option each field comes from: tiers.1.up_to is "--tier #2 UP_TO", package_size "--package-size". */
function optionOf(field: string): string {
  const tier = /^tiers\.(\d+)(?:\.(up_to|unit_amount|flat_amount))?$/.exec(field);
  if (tier) return `--tier #${Number(tier[1]) + 1}${tier[2] ? ` ${tier[2].toUpperCase()}` : ""}`;
  if (field === "tiers") return "--tier";
  return `--${field.replaceAll("_", "-")}`;
}

function asOptions(error: UsagePriceInputError): CliError {
  const lines = error.issues.map(({ field, message }) => {
    const rest = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
    return `${optionOf(field)}: ${rest}`;
  });
  return new CliError(lines.join("\n"), EXIT.usage);
}

export async function set(
  cli: Cli,
  planId: string,
  meter: string,
  options: { priceModel: PriceModelName; amount?: string; tier?: TierOption[]; packageSize?: number },
  command: Command,
): Promise<void> {
  const input = {
    price_model: options.priceModel,
    // Options left out stay out of the body: the service says which the price model needs.
    ...(options.amount === undefined ? {} : { amount: options.amount }),
    ...(options.tier === undefined ? {} : { tiers: options.tier }),
    ...(options.packageSize === undefined ? {} : { package_size: options.packageSize }),
  };
  const result = await cli
    .withDatabase((ctx) => setUsagePrice(ctx, { planId, meter, input, actor: CLI_ACTOR }))
    .catch((error: unknown) => {
      throw error instanceof UsagePriceInputError ? asOptions(error) : error;
    });
  const shown = present(result.usagePrice);
  cli.output(command).result(shown, () => fields(shown));
}

export async function unset(
  cli: Cli,
  planId: string,
  meter: string,
  _options: unknown,
  command: Command,
): Promise<void> {
  const removed = await cli.withDatabase((ctx) => removeUsagePrice(ctx, { planId, meter, actor: CLI_ACTOR }));
  const shown = present(removed);
  cli.output(command).result(shown, () => fields(shown));
}

export async function list(cli: Cli, planId: string, _options: unknown, command: Command): Promise<void> {
  const prices = await cli.withDatabase((ctx) => listUsagePrices(ctx, planId));
  const shown = prices.map(present);
  cli
    .output(command)
    .result({ data: shown }, () =>
      table(shown, ["meter", "meter_name", "price_model", "amount", "currency"]),
    );
}

export async function threshold(
  cli: Cli,
  planId: string,
  amount: string | undefined,
  options: { clear?: boolean },
  command: Command,
): Promise<void> {
  if ((amount === undefined) === (options.clear !== true)) {
    throw new CliError("give the threshold's amount, or --clear to remove it (not both)", EXIT.usage);
  }
  const set = await cli
    .withDatabase((ctx) =>
      setUsageThreshold(ctx, { planId, input: { amount: amount ?? null }, actor: CLI_ACTOR }),
    )
    .catch((error: unknown) => {
      if (!(error instanceof UsagePriceInputError)) throw error;
      // The amount is the command's argument, not an option.
      const messages = error.issues.map(({ message }) => message.replace(/^amount /, ""));
      throw new CliError(`AMOUNT: ${messages.join("; ")}`, EXIT.usage);
    });
  const shown = {
    plan_id: set.planId,
    usage_threshold: set.thresholdMinor === null ? null : toDecimalString(set.thresholdMinor, set.currency),
    currency: set.currency,
  };
  cli.output(command).result(shown, () => fields(shown));
}
