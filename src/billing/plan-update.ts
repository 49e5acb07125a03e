import { z } from "zod";
import { editablePlanFields, type Plan, PlanInputError } from "./plan.js";

/**
 * Rule: a plan changes only in what its subscriptions do not pay. Its name, its gateway product,
 * and what new subscriptions start with (trial_days, collection_method, trial_without_card) may
 * change; its price (amount, currency, price model, tiers, package size), its interval and its
 * billing_mode never do, since subscriptions already pay them (a recurring card token was even
 * enrolled for the amount): a new price is a new plan, and subscriptions move to it by a plan
 * change. Such a field is refused by name, with what to do instead, as is any unknown field.
 */

const NEW_PLAN = "create a plan with the new price and move subscriptions to it (change-plan)";
const PRICE = (field: string) =>
  `${field} cannot change: a plan's price and interval are fixed once it is created, since its subscriptions pay them; ${NEW_PLAN}`;

/** A field the body may not carry: refused with `message`, and documented as such. */
const refused = (message: string) => z.never({ error: message }).optional().describe(`Refused: ${message}`);

export const planUpdateSchema = z.strictObject(
  {
    name: editablePlanFields.name.optional().describe("Name shown to customers, on messages and receipts"),
    trial_days: editablePlanFields.trial_days
      .optional()
      .describe("Trial of the subscriptions that start from now on; those started keep theirs"),
    product_id: editablePlanFields.product_id.describe("Gateway product of its invoice items; null for none"),
    collection_method: editablePlanFields.collection_method
      .optional()
      .describe("How new subscriptions pay unless their enrolment says otherwise"),
    trial_without_card: editablePlanFields.trial_without_card
      .optional()
      .describe("New subscriptions start their trial without a card (needs trial_days of at least 1)"),
    amount: refused(PRICE("amount")),
    currency: refused(PRICE("currency")),
    price_model: refused(PRICE("price_model")),
    tiers: refused(PRICE("tiers")),
    package_size: refused(PRICE("package_size")),
    interval: refused(PRICE("interval")),
    interval_count: refused(PRICE("interval_count")),
    billing_mode: refused(
      "billing_mode cannot change: its subscriptions' cards were saved for it (a recurring token is charged the amount it was enrolled for); create a plan with the other billing_mode for new subscriptions",
    ),
    usage_threshold: refused("usage_threshold is set with PUT /v1/plans/{id}/usage-threshold"),
    archived_at: refused("archived_at is set with POST /v1/plans/{id}/archive and /unarchive"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field(s): ${issue.keys.join(", ")}` : undefined,
  },
);

export type PlanUpdate = z.output<typeof planUpdateSchema>;

/** Validates an update body; throws PlanInputError listing every problem by field. */
export function parsePlanUpdate(input: unknown): PlanUpdate {
  const result = planUpdateSchema.safeParse(input);
  if (result.success) return result.data;
  throw new PlanInputError(
    result.error.issues.map((issue) => ({ field: issue.path.join("."), message: issue.message })),
  );
}

/**
 * A trial without card needs a trial (as on creation), checked on the plan as the update leaves it.
 * The field named is the one the update sent: trial_without_card when it asks for one, else the
 * trial_days that would end it.
 */
export function assertTrialKept(
  plan: Pick<Plan, "trialDays" | "trialWithoutCard">,
  update: PlanUpdate,
): void {
  const trialDays = update.trial_days ?? plan.trialDays;
  const withoutCard = update.trial_without_card ?? plan.trialWithoutCard;
  if (!withoutCard || trialDays > 0) return;
  throw new PlanInputError([
    update.trial_without_card === true
      ? { field: "trial_without_card", message: "trial_without_card needs trial_days of at least 1" }
      : {
          field: "trial_days",
          message:
            "trial_days must be at least 1 while the plan's trial_without_card is true; send trial_without_card: false with it",
        },
  ]);
}
