import { z } from "zod";
import { toMinor } from "../money/index.js";
import { decimalAmountText, minorUnits, positiveMinorUnits } from "./amount-text.js";
import { PRICE_MODELS, type PriceModel, type PriceModelName, tierIssues } from "./price-models.js";

/**
 * The price fields of a create-plan body: `price_model` decides which of `amount`, `tiers` and
 * `package_size` it needs, and refuses the others (a field that would be ignored is a mistake).
 * Amounts convert exactly to minor units of the plan's currency. A tier's amounts may be zero (a
 * free first tier); the plan's amount may not (the gateway takes no zero charge). A `recurring`
 * plan is flat: its card token is charged the fixed amount it was enrolled for.
 */

export const MAX_TIERS = 100;
/** package_size is stored in a 4-byte integer column. */
export const MAX_PACKAGE_SIZE = 2_147_483_647;

const TIERED: readonly PriceModelName[] = ["tiered", "volume"];

const tierInput = z.strictObject(
  {
    up_to: z
      .number({ error: "up_to must be a whole number, or null for the last (open) tier" })
      .int({ error: "up_to must be a whole number, or null for the last (open) tier" })
      .min(1, { error: "up_to must be at least 1" })
      .nullable()
      .describe("Last unit of the tier, inclusive; null for the last tier, which is open"),
    unit_amount: decimalAmountText("unit_amount").describe("Price of each unit in the tier; may be 0"),
    flat_amount: decimalAmountText("flat_amount")
      .default("0")
      .describe("Added once when any unit falls in the tier (volume: the tier that prices them all)"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
  },
);

/** The price fields of the plan input schema (plan.ts), amount included. */
export const priceFields = {
  price_model: z
    .enum(PRICE_MODELS, { error: `price_model must be one of ${PRICE_MODELS.join(", ")}` })
    .default("flat")
    .describe("How the price grows with the subscription's quantity (default flat)"),
  amount: decimalAmountText()
    .optional()
    .describe(
      "Price of one period (flat), of one unit (per_unit) or of one package (package); not taken for tiered and volume",
    ),
  tiers: z
    .array(tierInput, { error: "tiers must be a list of tiers" })
    .max(MAX_TIERS, { error: `tiers must have at most ${MAX_TIERS} tiers` })
    .optional()
    .describe("tiered and volume only: ascending by up_to, the last open (up_to null)"),
  package_size: z
    .number({ error: "package_size must be a number" })
    .int({ error: "package_size must be a whole number" })
    .min(1, { error: "package_size must be at least 1" })
    .max(MAX_PACKAGE_SIZE, { error: `package_size must be at most ${MAX_PACKAGE_SIZE}` })
    .optional()
    .describe("package only: units per package; a started package is paid in full"),
};

type Path = readonly PropertyKey[];
type Issues = readonly { readonly path?: Path }[];

/** Whether an issue already sits at `path` or inside it (one problem per field is enough). */
const hasIssueUnder = (issues: Issues, path: Path) =>
  issues.some((issue) => path.every((key, i) => issue.path?.[i] === key));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

interface PriceCheckContext {
  readonly issues: Issues;
  addIssue(issue: { code: "custom"; path: PropertyKey[]; message: string }): void;
}

/**
 * Every problem of the price fields, also when other fields failed: each check looks only at
 * fields that are themselves well formed. `currencyOk`: the currency is known, so amounts convert.
 */
export function checkPrice(input: Record<string, unknown>, ctx: PriceCheckContext, currencyOk: boolean) {
  const model = input.price_model as PriceModelName;
  if (!PRICE_MODELS.includes(model)) return;
  const issue = (path: PropertyKey[], message: string) => {
    if (!hasIssueUnder(ctx.issues, path)) ctx.addIssue({ code: "custom", path, message });
  };
  const tiered = TIERED.includes(model);
  const what: Record<PriceModelName, string> = {
    flat: "one period",
    per_unit: "one unit",
    package: "one package",
    tiered: "the tiers",
    volume: "the tiers",
  };

  // Worded "<field> must …", so the CLI can put its option in place of the field.
  if (tiered && input.amount !== undefined)
    issue(["amount"], `amount must not be given with price_model ${model}: its tiers set the price`);
  if (!tiered && input.amount === undefined)
    issue(["amount"], `amount must be given with price_model ${model} (the price of ${what[model]})`);
  if (tiered && input.tiers === undefined) issue(["tiers"], `tiers must be given with price_model ${model}`);
  if (!tiered && input.tiers !== undefined)
    issue(["tiers"], `tiers must not be given with price_model ${model}: only tiered and volume take them`);
  if (model === "package" && input.package_size === undefined)
    issue(["package_size"], "package_size must be given with price_model package");
  if (model !== "package" && input.package_size !== undefined)
    issue(
      ["package_size"],
      `package_size must not be given with price_model ${model}: only package takes it`,
    );
  if (model !== "flat" && input.billing_mode === "recurring") {
    issue(
      ["price_model"],
      `price_model ${model} needs billing_mode "autosave": a "recurring" card token is charged the fixed amount it was enrolled for, so only a flat price fits it; with "autosave" (or a payment link) each charge carries its own amount`,
    );
  }

  const currency = input.currency as string;
  if (!tiered && typeof input.amount === "string" && currencyOk && !hasIssueUnder(ctx.issues, ["amount"])) {
    const minor = positiveMinorUnits(input.amount, currency);
    if (typeof minor === "string") issue(["amount"], minor);
  }
  if (tiered && Array.isArray(input.tiers)) checkTiers(input.tiers, issue, currencyOk ? currency : null);
}

/** The tiers' amounts in the currency (when known), then their order, each at its field's path. */
function checkTiers(
  tiers: readonly unknown[],
  issue: (path: PropertyKey[], message: string) => void,
  currency: string | null,
) {
  if (!tiers.every(isObject)) return;
  if (currency !== null) {
    for (const [i, tier] of tiers.entries()) {
      for (const field of ["unit_amount", "flat_amount"] as const) {
        const text = tier[field];
        if (typeof text !== "string") continue;
        const minor = minorUnits(text, currency, field);
        if (typeof minor === "string") issue(["tiers", i, field], minor);
      }
    }
  }
  // Amounts are judged above; only the order of up_to and the open last tier are left.
  const shape = tiers.map((tier) => ({
    // An up_to that is not a number has its own issue; NaN keeps it out of the order check.
    upTo: tier.up_to === null || typeof tier.up_to === "number" ? tier.up_to : Number.NaN,
    unitAmountMinor: 0,
    flatAmountMinor: 0,
  }));
  for (const found of tierIssues(shape)) {
    issue(found.tier === null ? ["tiers"] : ["tiers", found.tier, "up_to"], found.message);
  }
}

/** The price of a validated body, in minor units: the plan's amount column and its model. */
export function priceOfInput(input: {
  price_model: PriceModelName;
  amount?: string | undefined;
  currency: string;
  tiers?: readonly { up_to: number | null; unit_amount: string; flat_amount: string }[] | undefined;
  package_size?: number | undefined;
}): { amountMinor: number; price: PriceModel } {
  const minor = (text: string | undefined) => toMinor(text ?? "", input.currency);
  switch (input.price_model) {
    case "flat": {
      const amountMinor = minor(input.amount);
      return { amountMinor, price: { model: "flat", amountMinor } };
    }
    case "per_unit": {
      const amountMinor = minor(input.amount);
      return { amountMinor, price: { model: "per_unit", unitAmountMinor: amountMinor } };
    }
    case "package": {
      const amountMinor = minor(input.amount);
      const packageSize = input.package_size ?? 1;
      return { amountMinor, price: { model: "package", packageAmountMinor: amountMinor, packageSize } };
    }
    case "tiered":
    case "volume": {
      const tiers = (input.tiers ?? []).map((tier) => ({
        upTo: tier.up_to,
        unitAmountMinor: minor(tier.unit_amount),
        flatAmountMinor: minor(tier.flat_amount),
      }));
      // Tiered and volume plans store amount 0: their tiers are the price.
      return { amountMinor: 0, price: { model: input.price_model, tiers } };
    }
  }
}
