CREATE TYPE "public"."charge_kind" AS ENUM('period', 'plan_change');--> statement-breakpoint
CREATE TYPE "public"."coupon_duration" AS ENUM('once', 'repeating', 'forever');--> statement-breakpoint
CREATE TYPE "public"."discount_type" AS ENUM('percentage', 'fixed');--> statement-breakpoint
CREATE TYPE "public"."plan_change_status" AS ENUM('scheduled', 'applied', 'canceled');--> statement-breakpoint
CREATE TYPE "public"."proration_behavior" AS ENUM('immediate_prorate', 'at_period_end', 'none');--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text,
	"discount_type" "discount_type" NOT NULL,
	"percent_off" integer,
	"amount_off_minor" bigint,
	"currency" char(3),
	"duration" "coupon_duration" NOT NULL,
	"duration_periods" integer,
	"max_redemptions" integer,
	"redemptions" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_code_key" UNIQUE("code"),
	CONSTRAINT "coupons_code_shape" CHECK ("coupons"."code" ~ '^[A-Z0-9][A-Z0-9_-]{0,63}$'),
	CONSTRAINT "coupons_percentage_shape" CHECK ("coupons"."discount_type" <> 'percentage' or ("coupons"."percent_off" between 1 and 99 and "coupons"."amount_off_minor" is null and "coupons"."currency" is null)),
	CONSTRAINT "coupons_fixed_shape" CHECK ("coupons"."discount_type" <> 'fixed' or ("coupons"."amount_off_minor" > 0 and "coupons"."currency" is not null and "coupons"."percent_off" is null)),
	CONSTRAINT "coupons_currency_code" CHECK ("coupons"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "coupons_duration_periods" CHECK (("coupons"."duration" = 'repeating') = ("coupons"."duration_periods" is not null) and coalesce("coupons"."duration_periods", 1) between 1 and 1200),
	CONSTRAINT "coupons_max_redemptions_positive" CHECK ("coupons"."max_redemptions" is null or "coupons"."max_redemptions" >= 1),
	CONSTRAINT "coupons_redemptions_within_limit" CHECK ("coupons"."redemptions" >= 0 and ("coupons"."max_redemptions" is null or "coupons"."redemptions" <= "coupons"."max_redemptions"))
);
--> statement-breakpoint
CREATE TABLE "plan_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"from_plan_id" uuid NOT NULL,
	"to_plan_id" uuid NOT NULL,
	"proration" "proration_behavior" NOT NULL,
	"status" "plan_change_status" NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"currency" char(3) NOT NULL,
	"credit_minor" bigint DEFAULT 0 NOT NULL,
	"debit_minor" bigint DEFAULT 0 NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	CONSTRAINT "plan_changes_currency_code" CHECK ("plan_changes"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "plan_changes_amounts_non_negative" CHECK ("plan_changes"."credit_minor" >= 0 and "plan_changes"."debit_minor" >= 0),
	CONSTRAINT "plan_changes_different_plan" CHECK ("plan_changes"."from_plan_id" <> "plan_changes"."to_plan_id"),
	CONSTRAINT "plan_changes_applied_has_time" CHECK (("plan_changes"."status" = 'applied') = ("plan_changes"."applied_at" is not null)),
	CONSTRAINT "plan_changes_canceled_has_time" CHECK (("plan_changes"."status" = 'canceled') = ("plan_changes"."canceled_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "portal_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "portal_links_token_hash_hex" CHECK ("portal_links"."token_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "portal_links_expiry_after_creation" CHECK ("portal_links"."expires_at" > "portal_links"."created_at")
);
--> statement-breakpoint
CREATE TABLE "portal_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "portal_sessions_token_hash_hex" CHECK ("portal_sessions"."token_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "portal_sessions_csrf_present" CHECK (length("portal_sessions"."csrf_token") >= 32),
	CONSTRAINT "portal_sessions_expiry_after_creation" CHECK ("portal_sessions"."expires_at" > "portal_sessions"."created_at")
);
--> statement-breakpoint
CREATE TABLE "subscription_discounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"coupon_id" uuid NOT NULL,
	"applied_at" timestamp with time zone NOT NULL,
	"periods_applied" integer DEFAULT 0 NOT NULL,
	"ended_at" timestamp with time zone,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_discounts_periods_non_negative" CHECK ("subscription_discounts"."periods_applied" >= 0)
);
--> statement-breakpoint
ALTER TABLE "charges" DROP CONSTRAINT "charges_subscription_period_key";--> statement-breakpoint
ALTER TABLE "charges" DROP CONSTRAINT "charges_amount_positive";--> statement-breakpoint
ALTER TABLE "charges" DROP CONSTRAINT "charges_paid_has_settlement";--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "kind" charge_kind DEFAULT 'period' NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "plan_change_id" uuid;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "discount_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "discount_percent" integer;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "coupon_id" uuid;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "credit_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "credit_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_from_plan_id_plans_id_fk" FOREIGN KEY ("from_plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_to_plan_id_plans_id_fk" FOREIGN KEY ("to_plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_links" ADD CONSTRAINT "portal_links_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_discounts" ADD CONSTRAINT "subscription_discounts_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_discounts" ADD CONSTRAINT "subscription_discounts_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "plan_changes_one_scheduled" ON "plan_changes" USING btree ("subscription_id") WHERE "plan_changes"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "plan_changes_subscription_idx" ON "plan_changes" USING btree ("subscription_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_discounts_one_live" ON "subscription_discounts" USING btree ("subscription_id") WHERE "subscription_discounts"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "subscription_discounts_coupon_idx" ON "subscription_discounts" USING btree ("coupon_id");--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_plan_change_id_plan_changes_id_fk" FOREIGN KEY ("plan_change_id") REFERENCES "public"."plan_changes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_subscription_period_key" ON "charges" USING btree ("subscription_id","period_start") WHERE "charges"."kind" = 'period';--> statement-breakpoint
CREATE INDEX "charges_subscription_idx" ON "charges" USING btree ("subscription_id");--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_plan_change_key" UNIQUE("plan_change_id");--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_adjustments_non_negative" CHECK ("charges"."discount_minor" >= 0 and "charges"."credit_minor" >= 0);--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_discount_percent_range" CHECK ("charges"."discount_percent" is null or "charges"."discount_percent" between 1 and 99);--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_kind_plan_change" CHECK (("charges"."kind" = 'plan_change') = ("charges"."plan_change_id" is not null));--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_amount_positive" CHECK ("charges"."amount_minor" > 0 or ("charges"."amount_minor" = 0 and "charges"."status" = 'paid' and "charges"."attempt_count" = 0));--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_paid_has_settlement" CHECK ("charges"."status" <> 'paid' or ("charges"."paid_at" is not null and ("charges"."paid_transaction_id" is not null or "charges"."amount_minor" = 0)));--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_credit_non_negative" CHECK ("subscriptions"."credit_minor" >= 0);