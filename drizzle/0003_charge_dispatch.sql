DROP INDEX "subscriptions_due_idx";--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "charges_undispatched_idx" ON "charges" USING btree ("next_attempt_at","id") WHERE "charges"."status" in ('scheduled', 'retrying') and "charges"."next_attempt_at" is not null and "charges"."dispatched_at" is null;--> statement-breakpoint
CREATE INDEX "charges_uncollectible_idx" ON "charges" USING btree ("id") WHERE "charges"."status" = 'uncollectible';--> statement-breakpoint
CREATE INDEX "charges_dispatched_idx" ON "charges" USING btree ("dispatched_at") WHERE "charges"."status" in ('scheduled', 'retrying') and "charges"."dispatched_at" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_canceled_idx" ON "subscriptions" USING btree ("id") WHERE "subscriptions"."status" = 'canceled';--> statement-breakpoint
CREATE INDEX "subscriptions_in_debt_idx" ON "subscriptions" USING btree ("id") WHERE "subscriptions"."status" in ('past_due', 'unpaid');--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("next_billing_at","id") WHERE "subscriptions"."status" in ('trialing', 'active', 'past_due') and "subscriptions"."next_billing_at" is not null;