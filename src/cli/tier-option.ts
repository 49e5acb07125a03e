import { type Command, InvalidArgumentError, Option } from "commander";
import type { PriceModelName } from "../billing/price-models.js";
import { integer } from "./options.js";

/**
 * `--tier UP_TO:UNIT_AMOUNT[:FLAT_AMOUNT]`, repeatable, one per tier in order: UP_TO is the tier's
 * last unit or `inf` for the open last tier. Only the shape is read here, while the command line
 * is (plain, no zod); the amounts are judged by the plans service against the plan's currency.
 */

/** A tier as the create-plan body takes it. */
export interface TierOption {
  readonly up_to: number | null;
  readonly unit_amount: string;
  readonly flat_amount?: string;
}

export function tierOption(value: string, previous: readonly TierOption[] = []): TierOption[] {
  const parts = value.split(":");
  const [upTo = "", unitAmount = "", flatAmount] = parts;
  if (parts.length < 2 || parts.length > 3) {
    throw new InvalidArgumentError(
      "expected UP_TO:UNIT_AMOUNT[:FLAT_AMOUNT], e.g. 10:5.00 or inf:4.00:1.00.",
    );
  }
  if (upTo !== "inf" && !/^\d+$/.test(upTo)) {
    throw new InvalidArgumentError("UP_TO must be a whole number, or inf for the last tier.");
  }
  const tier: TierOption = {
    up_to: upTo === "inf" ? null : Number(upTo),
    unit_amount: unitAmount,
    ...(flatAmount === undefined ? {} : { flat_amount: flatAmount }),
  };
  return [...previous, tier];
}

/** billing/price-models.ts's PRICE_MODELS, spelt out: that module loads zod. */
const PRICE_MODELS = [
  "flat",
  "per_unit",
  "tiered",
  "volume",
  "package",
] as const satisfies readonly PriceModelName[];

/**
 * The price options every priced thing takes (plans, add-ons, usage prices): `--price-model`,
 * repeatable `--tier`, `--package-size`. Each command says its own `--amount`.
 */
export function priceOptions(
  command: Command,
  {
    modelHelp,
    defaultModel,
    tierExample,
  }: { modelHelp: string; defaultModel: PriceModelName; tierExample?: string },
): Command {
  return command
    .addOption(new Option("--price-model <model>", modelHelp).choices(PRICE_MODELS).default(defaultModel))
    .option(
      "--tier <UP_TO:UNIT_AMOUNT[:FLAT_AMOUNT]>",
      `tiered and volume: one tier, repeated in order; UP_TO is its last unit, inf for the open last tier${tierExample ? ` (e.g. ${tierExample})` : ""}`,
      tierOption,
    )
    .option("--package-size <n>", "package: units per package", integer(1, 2_147_483_647));
}
