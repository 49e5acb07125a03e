import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { charges } from "./billing.js";
import { amountMinor, createdAt, currency, isCurrencyCode, rowId, timestamptz } from "./columns.js";
import { chargeLineKind, oneOffCollect, priceModel } from "./enums.js";
import { subscriptions } from "./subscriptions.js";

/**
 * Something sold beside a plan, billed every period on the subscription's charge as a line of its
 * own, priced like a plan (price model, amount, tiers, package size: catalog.ts's plans say how).
 * Its code never changes; an archived add-on is attached to nothing new.
 */
export const addons = pgTable(
  "addons",
  {
    id: rowId(),
    code: text("code").notNull().unique("addons_code_key"),
    name: text("name").notNull(),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    priceModel: priceModel("price_model").notNull().default("flat"),
    tiers: jsonb("tiers"),
    packageSize: integer("package_size"),
    createdAt: createdAt(),
    archivedAt: timestamptz("archived_at"),
  },
  (t) => [
    check("addons_code_shape", sql`${t.code} ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'`),
    check("addons_name_present", sql`btrim(${t.name}) <> ''`),
    check("addons_currency_code", isCurrencyCode(t.currency)),
    check(
      "addons_amount_positive",
      sql`${t.amountMinor} > 0 or (${t.amountMinor} = 0 and ${t.priceModel} in ('tiered', 'volume'))`,
    ),
    check("addons_tiers_shape", sql`(${t.priceModel} in ('tiered', 'volume')) = (${t.tiers} is not null)`),
    check(
      "addons_package_size",
      sql`(${t.priceModel} = 'package') = (${t.packageSize} is not null) and coalesce(${t.packageSize}, 1) >= 1`,
    ),
  ],
);

/**
 * An add-on on a subscription, at its own quantity, from the period that starts after it was
 * attached (added_at, billing clock) until removed. At most one live row per subscription and
 * add-on: a new quantity ends the old row and starts another, so history stays.
 */
export const subscriptionAddons = pgTable(
  "subscription_addons",
  {
    id: rowId(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    addonId: uuid("addon_id")
      .notNull()
      .references(() => addons.id),
    quantity: integer("quantity").notNull(),
    addedAt: timestamptz("added_at").notNull(),
    removedAt: timestamptz("removed_at"),
    actor: text("actor").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subscription_addons_one_live")
      .on(t.subscriptionId, t.addonId)
      .where(sql`${t.removedAt} is null`),
    index("subscription_addons_live_idx").on(t.subscriptionId).where(sql`${t.removedAt} is null`),
    check("subscription_addons_quantity_range", sql`${t.quantity} between 1 and 1000000`),
  ],
);

/**
 * A charge a merchant makes once (a set-up fee, an overage, a service): unit amount × quantity in
 * the subscription's currency. `now`: its own charge (kind one_off, charge_id) is written with it
 * and collected like any charge. `next_bill`: it waits (charge_id null) until the scheduler bills
 * the subscription's next period, which takes it as a line and names itself in charge_id, in the
 * same transaction, so it is billed once. A waiting one can be canceled.
 */
export const oneOffCharges = pgTable(
  "one_off_charges",
  {
    id: rowId(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    description: text("description").notNull(),
    unitAmountMinor: amountMinor("unit_amount_minor").notNull(),
    quantity: integer("quantity").notNull().default(1),
    currency: currency().notNull(),
    collect: oneOffCollect("collect").notNull(),
    chargeId: uuid("charge_id").references(() => charges.id),
    actor: text("actor").notNull(),
    createdAt: createdAt(),
    canceledAt: timestamptz("canceled_at"),
  },
  (t) => [
    index("one_off_charges_waiting_idx")
      .on(t.subscriptionId)
      .where(sql`${t.chargeId} is null and ${t.canceledAt} is null`),
    index("one_off_charges_charge_idx").on(t.chargeId),
    check("one_off_charges_description_present", sql`btrim(${t.description}) <> ''`),
    check("one_off_charges_amount_positive", sql`${t.unitAmountMinor} > 0`),
    check("one_off_charges_quantity_range", sql`${t.quantity} between 1 and 1000000`),
    check("one_off_charges_currency_code", isCurrencyCode(t.currency)),
    check("one_off_charges_billed_or_canceled", sql`${t.chargeId} is null or ${t.canceledAt} is null`),
  ],
);

/**
 * The lines of a charge that has more than its plan at quantity 1 (billing/charge-lines.ts
 * linesWorthStoring): written with the charge, never changed. The lines add up to the charge's
 * price before its discount and credit.
 */
export const chargeLines = pgTable(
  "charge_lines",
  {
    chargeId: uuid("charge_id")
      .notNull()
      .references(() => charges.id),
    position: integer("position").notNull(),
    kind: chargeLineKind("kind").notNull(),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    amountMinor: amountMinor().notNull(),
    /** How a price model priced the quantity (billing/price-models.ts PricePart, snake_case). */
    parts: jsonb("parts").notNull(),
    /** The add-on or one-off charge the line bills; null for the plan. */
    refId: uuid("ref_id"),
  },
  (t) => [
    uniqueIndex("charge_lines_position_key").on(t.chargeId, t.position),
    check("charge_lines_amount_non_negative", sql`${t.amountMinor} >= 0`),
  ],
);
