DROP INDEX "charges_usage_period_key";--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "usage_part" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "usage_threshold_minor" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_usage_part_key" ON "charges" USING btree ("subscription_id","period_start","usage_part") WHERE "charges"."usage_part" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_usage_period_key" ON "charges" USING btree ("subscription_id","period_start") WHERE charge_kind_is_usage("charges"."kind") and "charges"."usage_part" is null;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_usage_part_is_usage" CHECK ("charges"."usage_part" is null or ("charges"."usage_part" >= 1 and charge_kind_is_usage("charges"."kind")));--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_usage_threshold_positive" CHECK ("plans"."usage_threshold_minor" is null or "plans"."usage_threshold_minor" > 0);