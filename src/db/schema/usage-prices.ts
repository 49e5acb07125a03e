import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { plans } from "./catalog.js";
import { amountMinor, timestamptz } from "./columns.js";
import { priceModel } from "./enums.js";
import { meters } from "./usage.js";

/**
 * What a plan charges for the usage of one meter over a period (src/usage-billing, docs/usage.md):
 * a price model exactly as a plan's (catalog.ts says how the columns read), in the plan's currency,
 * applied to the period's aggregated value. One price per plan and meter; setting it again replaces
 * it. created_at is on the BILLING clock, not the wall clock: a price bills the periods that end
 * after it was first set, and period ends are billing-clock times.
 */
export const planUsagePrices = pgTable(
  "plan_usage_prices",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id),
    meterId: uuid("meter_id")
      .notNull()
      .references(() => meters.id),
    priceModel: priceModel("price_model").notNull(),
    /** The flat price, the unit price (per_unit) or a package's price; 0 for tiered and volume. */
    amountMinor: amountMinor().notNull(),
    /** Tiered and volume prices: [{ up_to, unit_amount_minor, flat_amount_minor }], last up_to null. */
    tiers: jsonb("tiers"),
    packageSize: integer("package_size"),
    /** Billing clock, when the price was first set; kept when it is replaced. */
    createdAt: timestamptz("created_at").notNull(),
    /** Billing clock, when the price was last set. */
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ name: "plan_usage_prices_pkey", columns: [t.planId, t.meterId] }),
    check(
      "plan_usage_prices_amount_positive",
      sql`${t.amountMinor} > 0 or (${t.amountMinor} = 0 and ${t.priceModel} in ('tiered', 'volume'))`,
    ),
    check(
      "plan_usage_prices_tiers_shape",
      sql`(${t.priceModel} in ('tiered', 'volume')) = (${t.tiers} is not null)`,
    ),
    check(
      "plan_usage_prices_package_size",
      sql`(${t.priceModel} = 'package') = (${t.packageSize} is not null) and coalesce(${t.packageSize}, 1) >= 1`,
    ),
  ],
);
