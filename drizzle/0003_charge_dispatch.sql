DROP INDEX "charges_due_idx";--> statement-breakpoint
DROP INDEX "subscriptions_due_idx";--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "charges_due_idx" ON "charges" USING btree ("next_attempt_at","id") WHERE "charges"."status" in ('scheduled', 'retrying') and "charges"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("next_billing_at","id") WHERE "subscriptions"."status" in ('trialing', 'active', 'past_due') and "subscriptions"."next_billing_at" is not null;