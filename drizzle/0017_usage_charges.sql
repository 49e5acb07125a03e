ALTER TYPE "public"."charge_kind" ADD VALUE 'usage';--> statement-breakpoint
ALTER TYPE "public"."charge_line_kind" ADD VALUE 'usage';--> statement-breakpoint
CREATE TABLE "plan_usage_prices" (
	"plan_id" uuid NOT NULL,
	"meter_id" uuid NOT NULL,
	"price_model" "price_model" NOT NULL,
	"amount_minor" bigint NOT NULL,
	"tiers" jsonb,
	"package_size" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "plan_usage_prices_pkey" PRIMARY KEY("plan_id","meter_id"),
	CONSTRAINT "plan_usage_prices_amount_positive" CHECK ("plan_usage_prices"."amount_minor" > 0 or ("plan_usage_prices"."amount_minor" = 0 and "plan_usage_prices"."price_model" in ('tiered', 'volume'))),
	CONSTRAINT "plan_usage_prices_tiers_shape" CHECK (("plan_usage_prices"."price_model" in ('tiered', 'volume')) = ("plan_usage_prices"."tiers" is not null)),
	CONSTRAINT "plan_usage_prices_package_size" CHECK (("plan_usage_prices"."price_model" = 'package') = ("plan_usage_prices"."package_size" is not null) and coalesce("plan_usage_prices"."package_size", 1) >= 1)
);
--> statement-breakpoint
ALTER TABLE "plan_usage_prices" ADD CONSTRAINT "plan_usage_prices_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_usage_prices" ADD CONSTRAINT "plan_usage_prices_meter_id_meters_id_fk" FOREIGN KEY ("meter_id") REFERENCES "public"."meters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written: the usage charges' unique index cannot say kind = 'usage'. Migrations run in one
-- transaction and PostgreSQL refuses an enum value in the transaction that added it ("unsafe use of
-- new value"), so the predicate compares the label as text, which is immutable in fact (a label is
-- never renamed) though the enum-to-text cast is only declared stable. plpgsql is never inlined.
CREATE FUNCTION "charge_kind_is_usage"("kind" "charge_kind") RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ BEGIN RETURN "kind"::text = 'usage'; END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_usage_period_key" ON "charges" USING btree ("subscription_id","period_start") WHERE charge_kind_is_usage("charges"."kind");