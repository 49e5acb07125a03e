import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { amountMinor, createdAt, currency, isCurrencyCode, rowId, timestamptz } from "./columns.js";
import {
  billingMode,
  collectionMethod,
  featureKind,
  intervalUnit,
  language,
  messageKind,
  priceModel,
} from "./enums.js";

/**
 * What is sold. A plan's price and interval never change once a subscription uses it: a new
 * price is a new plan, and the old one is archived (archived plans take no new subscriptions).
 * The price of a period is the price model applied to the subscription's quantity
 * (billing/price-models.ts): amount_minor is the flat price, the unit price (per_unit) or the price
 * of a package of package_size units; tiered and volume prices are their tiers alone (amount 0).
 */
export const plans = pgTable(
  "plans",
  {
    id: rowId(),
    name: text("name").notNull(),
    amountMinor: amountMinor().notNull(),
    currency: currency().notNull(),
    priceModel: priceModel("price_model").notNull().default("flat"),
    /** Tiered and volume prices: [{ up_to, unit_amount_minor, flat_amount_minor }], last up_to null. */
    tiers: jsonb("tiers"),
    packageSize: integer("package_size"),
    intervalUnit: intervalUnit("interval_unit").notNull(),
    intervalCount: integer("interval_count").notNull(),
    trialDays: integer("trial_days").notNull().default(0),
    /** Product id in the gateway's catalogue (GET /v1/products), used on invoice items. */
    productId: text("product_id"),
    billingMode: billingMode("billing_mode").notNull().default("recurring"),
    /** What a new subscription to the plan uses unless its enrolment says otherwise. */
    collectionMethod: collectionMethod("collection_method").notNull().default("charge_automatically"),
    /** The trial starts without a card: no checkout, the first charge goes out as a payment link. */
    trialWithoutCard: boolean("trial_without_card").notNull().default(false),
    /** Progressive billing: usage not yet billed in an open period is charged once it reaches this. */
    usageThresholdMinor: bigint("usage_threshold_minor", { mode: "number" }),
    createdAt: createdAt(),
    archivedAt: timestamptz("archived_at"),
  },
  (t) => [
    check("plans_name_present", sql`btrim(${t.name}) <> ''`),
    check(
      "plans_amount_positive",
      sql`${t.amountMinor} > 0 or (${t.amountMinor} = 0 and ${t.priceModel} in ('tiered', 'volume'))`,
    ),
    check("plans_tiers_shape", sql`(${t.priceModel} in ('tiered', 'volume')) = (${t.tiers} is not null)`),
    check(
      "plans_package_size",
      sql`(${t.priceModel} = 'package') = (${t.packageSize} is not null) and coalesce(${t.packageSize}, 1) >= 1`,
    ),
    check("plans_currency_code", isCurrencyCode(t.currency)),
    check("plans_interval_count_range", sql`${t.intervalCount} between 1 and 365`),
    check("plans_trial_days_range", sql`${t.trialDays} between 0 and 730`),
    check("plans_cardless_trial_has_trial", sql`not ${t.trialWithoutCard} or ${t.trialDays} > 0`),
    check(
      "plans_usage_threshold_positive",
      sql`${t.usageThresholdMinor} is null or ${t.usageThresholdMinor} > 0`,
    ),
  ],
);

/**
 * Who pays. The e-mail is stored trimmed and lower-cased (the check refuses anything else), so
 * the plain unique index finds duplicates and `where email = $1` lookups use it.
 */
export const customers = pgTable(
  "customers",
  {
    id: rowId(),
    email: text("email").notNull().unique("customers_email_key"),
    name: text("name"),
    /** With country code, as the gateway wants it (e.g. +97455555555). */
    phone: text("phone"),
    language: language("language").notNull().default("en"),
    /** IANA zone for the customer's messages (dates, quiet hours); null: the billing time zone. */
    timeZone: text("time_zone"),
    /** Message kinds this customer does not want (service messages, so none is forced on them). */
    messageOptOuts: messageKind("message_opt_outs").array().notNull().default(sql`'{}'`),
    createdAt: createdAt(),
  },
  (t) => [
    check("customers_email_normalised", sql`${t.email} = lower(btrim(${t.email}))`),
    check("customers_email_shape", sql`${t.email} ~ '^[^@[:space:]]+@[^@[:space:]]+$'`),
  ],
);

/**
 * Something a plan gives its subscribers: a switch (`boolean`) or a limit (`limit`, e.g. 10
 * projects). The code is what the merchant's application asks about; it never changes.
 */
export const features = pgTable(
  "features",
  {
    id: rowId(),
    code: text("code").notNull().unique("features_code_key"),
    name: text("name").notNull(),
    kind: featureKind("kind").notNull(),
    createdAt: createdAt(),
    archivedAt: timestamptz("archived_at"),
  },
  (t) => [
    check("features_code_shape", sql`${t.code} ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'`),
    check("features_name_present", sql`btrim(${t.name}) <> ''`),
  ],
);

/**
 * A feature a plan includes: a limit feature with its limit (null: unlimited), a switch with none.
 * One row per plan and feature.
 */
export const planFeatures = pgTable(
  "plan_features",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id),
    featureId: uuid("feature_id")
      .notNull()
      .references(() => features.id),
    limitValue: bigint("limit_value", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.planId, t.featureId] }),
    index("plan_features_feature_idx").on(t.featureId),
    check("plan_features_limit_non_negative", sql`${t.limitValue} is null or ${t.limitValue} >= 0`),
  ],
);
