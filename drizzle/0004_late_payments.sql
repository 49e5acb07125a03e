CREATE TYPE "public"."refund_reason" AS ENUM('requested', 'duplicate');--> statement-breakpoint
DROP INDEX "refunds_one_live_per_charge";--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD COLUMN "late_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD COLUMN "late_checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD COLUMN "duplicate_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "reason" "refund_reason" DEFAULT 'requested' NOT NULL;--> statement-breakpoint
CREATE INDEX "charge_attempts_late_watch_idx" ON "charge_attempts" USING btree ("late_check_at") WHERE "charge_attempts"."status" = 'failed_permanently' and "charge_attempts"."late_check_at" is not null;--> statement-breakpoint
CREATE INDEX "charge_attempts_duplicate_idx" ON "charge_attempts" USING btree ("duplicate_at") WHERE "charge_attempts"."duplicate_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_live_per_transaction" ON "refunds" USING btree ("refunded_transaction_id") WHERE "refunds"."status" <> 'failed';--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD CONSTRAINT "charge_attempts_late_watch_closed" CHECK ("charge_attempts"."late_check_at" is null or "charge_attempts"."status" = 'failed_permanently');--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD CONSTRAINT "charge_attempts_duplicate_approved" CHECK ("charge_attempts"."duplicate_at" is null or "charge_attempts"."status" = 'approved');