CREATE TYPE "public"."feature_kind" AS ENUM('boolean', 'limit');--> statement-breakpoint
CREATE TYPE "public"."price_model" AS ENUM('flat', 'per_unit', 'tiered', 'volume', 'package');--> statement-breakpoint
CREATE TABLE "features" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" "feature_kind" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "features_code_key" UNIQUE("code"),
	CONSTRAINT "features_code_shape" CHECK ("features"."code" ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
	CONSTRAINT "features_name_present" CHECK (btrim("features"."name") <> '')
);
--> statement-breakpoint
CREATE TABLE "plan_features" (
	"plan_id" uuid NOT NULL,
	"feature_id" uuid NOT NULL,
	"limit_value" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_features_plan_id_feature_id_pk" PRIMARY KEY("plan_id","feature_id"),
	CONSTRAINT "plan_features_limit_non_negative" CHECK ("plan_features"."limit_value" is null or "plan_features"."limit_value" >= 0)
);
--> statement-breakpoint
ALTER TABLE "plans" DROP CONSTRAINT "plans_amount_positive";--> statement-breakpoint
ALTER TABLE "plan_changes" DROP CONSTRAINT "plan_changes_different_plan";--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "price_model" "price_model" DEFAULT 'flat' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "tiers" jsonb;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "package_size" integer;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "from_quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD COLUMN "to_quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "plan_features" ADD CONSTRAINT "plan_features_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_features" ADD CONSTRAINT "plan_features_feature_id_features_id_fk" FOREIGN KEY ("feature_id") REFERENCES "public"."features"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_features_feature_idx" ON "plan_features" USING btree ("feature_id");--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_tiers_shape" CHECK (("plans"."price_model" in ('tiered', 'volume')) = ("plans"."tiers" is not null));--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_package_size" CHECK (("plans"."price_model" = 'package') = ("plans"."package_size" is not null) and coalesce("plans"."package_size", 1) >= 1);--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_amount_positive" CHECK ("plans"."amount_minor" > 0 or ("plans"."amount_minor" = 0 and "plans"."price_model" in ('tiered', 'volume')));--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_quantities_range" CHECK ("plan_changes"."from_quantity" between 1 and 1000000 and "plan_changes"."to_quantity" between 1 and 1000000);--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_different_plan" CHECK ("plan_changes"."from_plan_id" <> "plan_changes"."to_plan_id" or "plan_changes"."from_quantity" <> "plan_changes"."to_quantity");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_quantity_range" CHECK ("subscriptions"."quantity" between 1 and 1000000);