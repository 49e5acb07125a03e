import { eq, getTableColumns, inArray } from "drizzle-orm";
import { sqlOf, type Tx } from "../db/index.js";
import { charges, plans, subscriptions } from "../db/schema/index.js";
import { chargeLinesOf, type StoredLine } from "../pricing/stored-lines.js";
import {
  type LinkSigner,
  presentCharge,
  presentMoney,
  presentSubscription,
  subscriptionViews,
  withAttemptsAndRefunds,
} from "../resources/index.js";
import type { ObjectKind } from "./object-kinds.js";
import type { ChargeObject, SubscriptionObject } from "./object-schemas.js";

/**
 * The objects charge and subscription events carry (object-kinds.ts), read for a whole dispatch
 * batch at once: charges with their attempts, refunds and lines, subscriptions with their discount
 * and scheduled plan change, in a fixed handful of queries whatever the batch holds. Presented by
 * the API's own presenters (src/resources), plus what a receiver would otherwise call back for: the
 * customer, the plan's name and the quantity billed.
 */

/** Each kind's objects by id; an id not found is absent. */
export type EventObjects = Record<ObjectKind, Map<string, ChargeObject | SubscriptionObject>>;

export async function loadEventObjects(
  tx: Tx,
  signer: LinkSigner,
  ids: Record<ObjectKind, string[]>,
): Promise<EventObjects> {
  const [charge, subscription] = await Promise.all([
    loadCharges(tx, signer, ids.charge),
    loadSubscriptions(tx, ids.subscription),
  ]);
  const byId = (objects: (ChargeObject | SubscriptionObject)[]) => new Map(objects.map((o) => [o.id, o]));
  return { charge: byId(charge), subscription: byId(subscription) };
}

async function loadCharges(tx: Tx, signer: LinkSigner, ids: string[]): Promise<ChargeObject[]> {
  if (ids.length === 0) return [];
  const [rows, lines] = await Promise.all([
    tx
      .select({ ...getTableColumns(charges), customerId: subscriptions.customerId, planName: plans.name })
      .from(charges)
      .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
      .innerJoin(plans, eq(plans.id, charges.planId))
      .where(inArray(charges.id, ids))
      .then((found) => withAttemptsAndRefunds(tx, found)),
    chargeLinesOf(sqlOf(tx), ids),
  ]);
  return rows.map((row) => {
    const stored = lines.get(row.id);
    return {
      object: "charge",
      ...presentCharge(row, signer),
      customer_id: row.customerId,
      plan_name: row.planName,
      quantity: row.quantity,
      ...(stored && { lines: stored.map((line) => presentLine(line, row.currency)) }),
    };
  });
}

function presentLine(line: StoredLine, currency: string) {
  return {
    kind: line.kind,
    description: line.description,
    quantity: line.quantity,
    amount: presentMoney(line.amountMinor, currency),
    ref_id: line.refId,
  };
}

async function loadSubscriptions(tx: Tx, ids: string[]): Promise<SubscriptionObject[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ ...getTableColumns(subscriptions), planName: plans.name })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(inArray(subscriptions.id, ids));
  const views = await subscriptionViews(tx, rows);
  return views.map((view) => ({
    object: "subscription",
    ...presentSubscription(view),
    plan_name: view.planName,
  }));
}
