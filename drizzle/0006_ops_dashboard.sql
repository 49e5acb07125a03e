CREATE TABLE "ops_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"api_key_id" uuid NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ops_sessions_token_hash_hex" CHECK ("ops_sessions"."token_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "ops_sessions_csrf_present" CHECK (length("ops_sessions"."csrf_token") >= 32),
	CONSTRAINT "ops_sessions_expiry_after_creation" CHECK ("ops_sessions"."expires_at" > "ops_sessions"."created_at")
);
--> statement-breakpoint
CREATE TABLE "ops_collection_days" (
	"timezone" text NOT NULL,
	"currency" char(3) NOT NULL,
	"day" date NOT NULL,
	"paid_count" bigint NOT NULL,
	"paid_amount_minor" bigint NOT NULL,
	"declined_count" bigint NOT NULL,
	"declined_amount_minor" bigint NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ops_collection_days_pkey" PRIMARY KEY("timezone","currency","day"),
	CONSTRAINT "ops_collection_days_non_negative" CHECK ("ops_collection_days"."paid_count" >= 0 and "ops_collection_days"."paid_amount_minor" >= 0 and "ops_collection_days"."declined_count" >= 0 and "ops_collection_days"."declined_amount_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tick_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"duration_ms" integer,
	"outcome" text,
	"error" text,
	"runs" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "tick_runs_outcome_known" CHECK ("tick_runs"."outcome" is null or "tick_runs"."outcome" in ('ok', 'paused', 'failed')),
	CONSTRAINT "tick_runs_duration_non_negative" CHECK ("tick_runs"."duration_ms" is null or "tick_runs"."duration_ms" >= 0)
);
--> statement-breakpoint
DROP INDEX "subscriptions_due_idx";--> statement-breakpoint
ALTER TABLE "ops_sessions" ADD CONSTRAINT "ops_sessions_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charge_attempts_settled_idx" ON "charge_attempts" USING btree ("settled_at","status","charge_id") WHERE "charge_attempts"."settled_at" is not null and "charge_attempts"."status" <> 'approved';--> statement-breakpoint
CREATE INDEX "charge_attempts_open_idx" ON "charge_attempts" USING btree ("created_at") WHERE "charge_attempts"."status" in ('unknown', 'needs_review');--> statement-breakpoint
CREATE INDEX "charges_paid_at_idx" ON "charges" USING btree ("paid_at","currency","amount_minor","attempt_count") WHERE "charges"."status" = 'paid';--> statement-breakpoint
CREATE INDEX "charges_first_failed_idx" ON "charges" USING btree ("first_failed_at","status","attempt_count","currency","amount_minor") WHERE "charges"."first_failed_at" is not null;--> statement-breakpoint
CREATE INDEX "charges_needs_review_idx" ON "charges" USING btree ("updated_at") WHERE "charges"."status" = 'needs_review';--> statement-breakpoint
CREATE INDEX "charges_uncollectible_recent_idx" ON "charges" USING btree ("updated_at") WHERE "charges"."status" = 'uncollectible';--> statement-breakpoint
CREATE INDEX "invoices_failed_idx" ON "invoices" USING btree ("created_at") WHERE "invoices"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_failing_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at") WHERE "webhook_deliveries"."status" = 'failed' or ("webhook_deliveries"."status" = 'pending' and "webhook_deliveries"."attempts" > 0);--> statement-breakpoint
CREATE INDEX "enrollments_attention_idx" ON "enrollments" USING btree ("created_at") WHERE "enrollments"."operator_attention" is not null;--> statement-breakpoint
CREATE INDEX "payment_methods_expires_idx" ON "payment_methods" USING btree ("expires_at") WHERE "payment_methods"."deactivated_at" is null and "payment_methods"."unusable_at" is null;--> statement-breakpoint
CREATE INDEX "subscriptions_status_plan_idx" ON "subscriptions" USING btree ("status","plan_id");--> statement-breakpoint
CREATE INDEX "subscriptions_canceled_at_idx" ON "subscriptions" USING btree ("canceled_at") WHERE "subscriptions"."canceled_at" is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_live_payment_method_idx" ON "subscriptions" USING btree ("payment_method_id") WHERE "subscriptions"."status" in ('trialing', 'active', 'past_due');--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("next_billing_at","id","plan_id") WHERE "subscriptions"."status" in ('trialing', 'active', 'past_due') and "subscriptions"."next_billing_at" is not null;