import { eq } from "drizzle-orm";
import { z } from "zod";
import { assertTrialKept, type PlanUpdate, parsePlanUpdate } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { type StoredPlan, toStoredPlan } from "./plan-record.js";

type Row = typeof plans.$inferSelect;

/** The body's fields, by the plans table's columns. */
const COLUMNS = {
  name: "name",
  trial_days: "trialDays",
  product_id: "productId",
  collection_method: "collectionMethod",
  trial_without_card: "trialWithoutCard",
} as const satisfies Partial<Record<keyof PlanUpdate, keyof Row>>;

/** The fields whose value the update changes, with their values before and after. */
function changesOf(row: Row, update: PlanUpdate) {
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  const set: Partial<Row> = {};
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = update[field as keyof typeof COLUMNS];
    if (value === undefined || value === row[column]) continue;
    from[field] = row[column];
    to[field] = value;
    Object.assign(set, { [column]: value });
  }
  return { fields: Object.keys(to), from, to, set };
}

/**
 * Changes what a plan may change (billing/plan-update.ts: name, product_id, and what new
 * subscriptions start with), archived or not: only the fields given, checked on the plan as it
 * would be after, with a plan.updated event naming each changed field's value before and after in
 * the same transaction. A field sent with the value it has changes nothing, and no change records
 * nothing. Null for an unknown plan; throws PlanInputError naming each bad or fixed field.
 */
export async function updatePlan(
  ctx: Pick<EngineContext, "db" | "clock">,
  id: string,
  input: unknown,
  { actor = "system" }: { actor?: string } = {},
): Promise<StoredPlan | null> {
  const update = parsePlanUpdate(input);
  if (!z.uuid().safeParse(id).success) return null;
  return ctx.db.transaction(async (tx) => {
    // Locked so that two updates cannot each check the trial against the other's old value.
    const [row] = await tx.select().from(plans).where(eq(plans.id, id)).for("no key update");
    if (!row) return null;
    assertTrialKept(row, update);
    const { fields, from, to, set } = changesOf(row, update);
    if (fields.length === 0) return toStoredPlan(row);
    const [updated] = await tx.update(plans).set(set).where(eq(plans.id, id)).returning();
    if (!updated) throw new Error(`plan ${id} was not updated`);
    await recordEvent(tx, {
      type: "plan.updated",
      actor,
      occurredAt: ctx.clock.now(),
      data: { plan_id: id, fields, from, to },
    });
    return toStoredPlan(updated);
  });
}
