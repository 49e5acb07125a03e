CREATE TYPE "public"."charge_line_kind" AS ENUM('plan', 'addon', 'one_off');--> statement-breakpoint
CREATE TYPE "public"."one_off_collect" AS ENUM('now', 'next_bill');--> statement-breakpoint
ALTER TYPE "public"."charge_kind" ADD VALUE 'one_off';--> statement-breakpoint
CREATE TABLE "addons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"price_model" "price_model" DEFAULT 'flat' NOT NULL,
	"tiers" jsonb,
	"package_size" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "addons_code_key" UNIQUE("code"),
	CONSTRAINT "addons_code_shape" CHECK ("addons"."code" ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
	CONSTRAINT "addons_name_present" CHECK (btrim("addons"."name") <> ''),
	CONSTRAINT "addons_currency_code" CHECK ("addons"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "addons_amount_positive" CHECK ("addons"."amount_minor" > 0 or ("addons"."amount_minor" = 0 and "addons"."price_model" in ('tiered', 'volume'))),
	CONSTRAINT "addons_tiers_shape" CHECK (("addons"."price_model" in ('tiered', 'volume')) = ("addons"."tiers" is not null)),
	CONSTRAINT "addons_package_size" CHECK (("addons"."price_model" = 'package') = ("addons"."package_size" is not null) and coalesce("addons"."package_size", 1) >= 1)
);
--> statement-breakpoint
CREATE TABLE "charge_lines" (
	"charge_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" charge_line_kind NOT NULL,
	"description" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount_minor" bigint NOT NULL,
	"parts" jsonb NOT NULL,
	"ref_id" uuid,
	CONSTRAINT "charge_lines_amount_non_negative" CHECK ("charge_lines"."amount_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "one_off_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"description" text NOT NULL,
	"unit_amount_minor" bigint NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"currency" char(3) NOT NULL,
	"collect" "one_off_collect" NOT NULL,
	"charge_id" uuid,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	CONSTRAINT "one_off_charges_description_present" CHECK (btrim("one_off_charges"."description") <> ''),
	CONSTRAINT "one_off_charges_amount_positive" CHECK ("one_off_charges"."unit_amount_minor" > 0),
	CONSTRAINT "one_off_charges_quantity_range" CHECK ("one_off_charges"."quantity" between 1 and 1000000),
	CONSTRAINT "one_off_charges_currency_code" CHECK ("one_off_charges"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "one_off_charges_billed_or_canceled" CHECK ("one_off_charges"."charge_id" is null or "one_off_charges"."canceled_at" is null)
);
--> statement-breakpoint
CREATE TABLE "subscription_addons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"addon_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_addons_quantity_range" CHECK ("subscription_addons"."quantity" between 1 and 1000000)
);
--> statement-breakpoint
ALTER TABLE "charge_lines" ADD CONSTRAINT "charge_lines_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_off_charges" ADD CONSTRAINT "one_off_charges_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_off_charges" ADD CONSTRAINT "one_off_charges_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_addons" ADD CONSTRAINT "subscription_addons_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_addons" ADD CONSTRAINT "subscription_addons_addon_id_addons_id_fk" FOREIGN KEY ("addon_id") REFERENCES "public"."addons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charge_lines_position_key" ON "charge_lines" USING btree ("charge_id","position");--> statement-breakpoint
CREATE INDEX "one_off_charges_waiting_idx" ON "one_off_charges" USING btree ("subscription_id") WHERE "one_off_charges"."charge_id" is null and "one_off_charges"."canceled_at" is null;--> statement-breakpoint
CREATE INDEX "one_off_charges_charge_idx" ON "one_off_charges" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_addons_one_live" ON "subscription_addons" USING btree ("subscription_id","addon_id") WHERE "subscription_addons"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "subscription_addons_live_idx" ON "subscription_addons" USING btree ("subscription_id") WHERE "subscription_addons"."removed_at" is null;