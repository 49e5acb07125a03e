CREATE TYPE "public"."billing_mode" AS ENUM('recurring', 'autosave');--> statement-breakpoint
CREATE TYPE "public"."charge_attempt_status" AS ENUM('in_flight', 'approved', 'declined', 'unknown', 'needs_review', 'failed_permanently');--> statement-breakpoint
CREATE TYPE "public"."charge_status" AS ENUM('scheduled', 'processing', 'retrying', 'paid', 'needs_review', 'uncollectible', 'canceled');--> statement-breakpoint
CREATE TYPE "public"."enrollment_status" AS ENUM('pending', 'completed', 'failed', 'expired');--> statement-breakpoint
CREATE TYPE "public"."interval_unit" AS ENUM('day', 'week', 'month', 'year');--> statement-breakpoint
CREATE TYPE "public"."invoice_status" AS ENUM('pending', 'created', 'failed');--> statement-breakpoint
CREATE TYPE "public"."language" AS ENUM('en', 'ar');--> statement-breakpoint
CREATE TYPE "public"."refund_channel" AS ENUM('v1', 'legacy');--> statement-breakpoint
CREATE TYPE "public"."refund_status" AS ENUM('requested', 'completed', 'under_processing', 'failed', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."subscription_status" AS ENUM('pending_enrollment', 'trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled');--> statement-breakpoint
CREATE TYPE "public"."void_refunded" AS ENUM('yes', 'no');--> statement-breakpoint
CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'delivered', 'failed');--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_key" UNIQUE("key_hash"),
	CONSTRAINT "api_keys_name_present" CHECK (btrim("api_keys"."name") <> ''),
	CONSTRAINT "api_keys_key_hash_hex" CHECK ("api_keys"."key_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "api_keys_prefix_present" CHECK ("api_keys"."prefix" <> '')
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"api_key_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("api_key_id","key"),
	CONSTRAINT "idempotency_keys_key_length" CHECK (length("idempotency_keys"."key") between 1 and 255),
	CONSTRAINT "idempotency_keys_request_hash_present" CHECK ("idempotency_keys"."request_hash" <> ''),
	CONSTRAINT "idempotency_keys_response_status_range" CHECK ("idempotency_keys"."response_status" between 100 and 599)
);
--> statement-breakpoint
CREATE TABLE "charge_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"charge_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"attempt_number" integer NOT NULL,
	"status" charge_attempt_status DEFAULT 'in_flight' NOT NULL,
	"gateway_transaction_id" text,
	"auth_code" text,
	"decline_code" text,
	"decline_description" text,
	"reconcile_tries" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "charge_attempts_order_id_key" UNIQUE("order_id"),
	CONSTRAINT "charge_attempts_gateway_transaction_key" UNIQUE("gateway_transaction_id"),
	CONSTRAINT "charge_attempts_charge_attempt_number_key" UNIQUE("charge_id","attempt_number"),
	CONSTRAINT "charge_attempts_order_id_present" CHECK ("charge_attempts"."order_id" <> ''),
	CONSTRAINT "charge_attempts_transaction_id_present" CHECK ("charge_attempts"."gateway_transaction_id" <> ''),
	CONSTRAINT "charge_attempts_attempt_number_positive" CHECK ("charge_attempts"."attempt_number" >= 1),
	CONSTRAINT "charge_attempts_reconcile_tries_non_negative" CHECK ("charge_attempts"."reconcile_tries" >= 0),
	CONSTRAINT "charge_attempts_open_not_settled" CHECK ("charge_attempts"."status" not in ('in_flight', 'unknown') or "charge_attempts"."settled_at" is null),
	CONSTRAINT "charge_attempts_outcome_settled" CHECK ("charge_attempts"."status" not in ('approved', 'declined', 'failed_permanently') or "charge_attempts"."settled_at" is not null),
	CONSTRAINT "charge_attempts_approved_has_transaction" CHECK ("charge_attempts"."status" <> 'approved' or "charge_attempts"."gateway_transaction_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"status" charge_status DEFAULT 'scheduled' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"first_failed_at" timestamp with time zone,
	"last_decline_code" text,
	"last_decline_description" text,
	"paid_at" timestamp with time zone,
	"paid_transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charges_paid_transaction_key" UNIQUE("paid_transaction_id"),
	CONSTRAINT "charges_subscription_period_key" UNIQUE("subscription_id","period_start"),
	CONSTRAINT "charges_period_order" CHECK ("charges"."period_end" > "charges"."period_start"),
	CONSTRAINT "charges_amount_positive" CHECK ("charges"."amount_minor" > 0),
	CONSTRAINT "charges_currency_code" CHECK ("charges"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "charges_attempt_count_non_negative" CHECK ("charges"."attempt_count" >= 0),
	CONSTRAINT "charges_due_only_when_waiting" CHECK ("charges"."next_attempt_at" is null or "charges"."status" in ('scheduled', 'retrying')),
	CONSTRAINT "charges_paid_has_settlement" CHECK ("charges"."status" <> 'paid' or ("charges"."paid_at" is not null and "charges"."paid_transaction_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"charge_id" uuid NOT NULL,
	"status" "invoice_status" DEFAULT 'pending' NOT NULL,
	"gateway_invoice_id" integer,
	"number" text,
	"link" text,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at_gateway" timestamp with time zone,
	CONSTRAINT "invoices_charge_key" UNIQUE("charge_id"),
	CONSTRAINT "invoices_gateway_invoice_key" UNIQUE("gateway_invoice_id"),
	CONSTRAINT "invoices_number_key" UNIQUE("number"),
	CONSTRAINT "invoices_amount_positive" CHECK ("invoices"."amount_minor" > 0),
	CONSTRAINT "invoices_currency_code" CHECK ("invoices"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "invoices_attempts_non_negative" CHECK ("invoices"."attempts" >= 0),
	CONSTRAINT "invoices_created_has_gateway_id" CHECK ("invoices"."status" <> 'created' or "invoices"."gateway_invoice_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"charge_id" uuid NOT NULL,
	"charge_attempt_id" uuid NOT NULL,
	"refunded_transaction_id" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"channel" "refund_channel" NOT NULL,
	"status" "refund_status" DEFAULT 'requested' NOT NULL,
	"gateway_refund_transaction_id" text,
	"description" text,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_minor" > 0),
	CONSTRAINT "refunds_currency_code" CHECK ("refunds"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "refunds_requested_by_present" CHECK ("refunds"."requested_by" <> ''),
	CONSTRAINT "refunds_settled_when_answered" CHECK (("refunds"."status" in ('requested', 'unknown')) = ("refunds"."settled_at" is null))
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"phone" text,
	"language" "language" DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_email_key" UNIQUE("email"),
	CONSTRAINT "customers_email_normalised" CHECK ("customers"."email" = lower(btrim("customers"."email"))),
	CONSTRAINT "customers_email_shape" CHECK ("customers"."email" ~ '^[^@[:space:]]+@[^@[:space:]]+$')
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"interval_unit" interval_unit NOT NULL,
	"interval_count" integer NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"product_id" text,
	"billing_mode" "billing_mode" DEFAULT 'recurring' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "plans_name_present" CHECK (btrim("plans"."name") <> ''),
	CONSTRAINT "plans_amount_positive" CHECK ("plans"."amount_minor" > 0),
	CONSTRAINT "plans_currency_code" CHECK ("plans"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "plans_interval_count_range" CHECK ("plans"."interval_count" between 1 and 365),
	CONSTRAINT "plans_trial_days_range" CHECK ("plans"."trial_days" between 0 and 730)
);
--> statement-breakpoint
CREATE TABLE "clock_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"now" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clock_state_singleton" CHECK ("clock_state"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"subscription_id" uuid,
	"customer_id" uuid,
	"charge_id" uuid,
	"type" text NOT NULL,
	"actor" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_type_present" CHECK ("events"."type" <> ''),
	CONSTRAINT "events_actor_present" CHECK ("events"."actor" <> ''),
	CONSTRAINT "events_data_object" CHECK (jsonb_typeof("events"."data") = 'object')
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" bigint NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" "webhook_delivery_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_endpoint_event_key" UNIQUE("endpoint_id","event_id"),
	CONSTRAINT "webhook_deliveries_attempts_non_negative" CHECK ("webhook_deliveries"."attempts" >= 0),
	CONSTRAINT "webhook_deliveries_status_code_range" CHECK ("webhook_deliveries"."last_status_code" between 100 and 599),
	CONSTRAINT "webhook_deliveries_due_only_when_pending" CHECK ("webhook_deliveries"."next_attempt_at" is null or "webhook_deliveries"."status" = 'pending'),
	CONSTRAINT "webhook_deliveries_delivered_has_time" CHECK (("webhook_deliveries"."status" = 'delivered') = ("webhook_deliveries"."delivered_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_url_http" CHECK ("webhook_endpoints"."url" ~ '^https?://'),
	CONSTRAINT "webhook_endpoints_secret_present" CHECK ("webhook_endpoints"."secret" <> '')
);
--> statement-breakpoint
CREATE TABLE "enrollments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"kind" "billing_mode" NOT NULL,
	"status" "enrollment_status" DEFAULT 'pending' NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"language" "language" DEFAULT 'en' NOT NULL,
	"checkout_url" text,
	"gateway_transaction_id" text,
	"failure_description" text,
	"void_refunded" "void_refunded",
	"void_refund_transaction_id" text,
	"void_refund_description" text,
	"operator_attention" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "enrollments_gateway_transaction_key" UNIQUE("gateway_transaction_id"),
	CONSTRAINT "enrollments_amount_positive" CHECK ("enrollments"."amount_minor" > 0),
	CONSTRAINT "enrollments_currency_code" CHECK ("enrollments"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "enrollments_completed_has_time" CHECK (("enrollments"."status" = 'completed') = ("enrollments"."completed_at" is not null)),
	CONSTRAINT "enrollments_void_outcome_on_completed" CHECK ("enrollments"."void_refunded" is null or "enrollments"."status" = 'completed')
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"subscription_id" uuid,
	"enrollment_id" uuid,
	"kind" "billing_mode" NOT NULL,
	"token_ciphertext" "bytea" NOT NULL,
	"token_nonce" "bytea" NOT NULL,
	"token_tag" "bytea" NOT NULL,
	"token_key_id" text NOT NULL,
	"token_fingerprint" text NOT NULL,
	"card_last4" text,
	"card_expiry_month" text,
	"amount_minor" bigint,
	"currency" char(3),
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivation_reason" text,
	"unusable_at" timestamp with time zone,
	"unusable_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_methods_enrollment_key" UNIQUE("enrollment_id"),
	CONSTRAINT "payment_methods_token_fingerprint_key" UNIQUE("token_fingerprint"),
	CONSTRAINT "payment_methods_token_sealed" CHECK (octet_length("payment_methods"."token_ciphertext") > 0),
	CONSTRAINT "payment_methods_token_nonce_length" CHECK (octet_length("payment_methods"."token_nonce") = 12),
	CONSTRAINT "payment_methods_token_tag_length" CHECK (octet_length("payment_methods"."token_tag") = 16),
	CONSTRAINT "payment_methods_token_key_id_present" CHECK ("payment_methods"."token_key_id" <> ''),
	CONSTRAINT "payment_methods_token_fingerprint_hex" CHECK ("payment_methods"."token_fingerprint" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "payment_methods_card_last4_digits" CHECK ("payment_methods"."card_last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "payment_methods_card_expiry_shape" CHECK ("payment_methods"."card_expiry_month" ~ '^(0[1-9]|1[0-2])/[0-9]{2}$'),
	CONSTRAINT "payment_methods_amount_positive" CHECK ("payment_methods"."amount_minor" > 0),
	CONSTRAINT "payment_methods_amount_with_currency" CHECK (("payment_methods"."amount_minor" is null) = ("payment_methods"."currency" is null)),
	CONSTRAINT "payment_methods_currency_code" CHECK ("payment_methods"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "payment_methods_recurring_has_amount" CHECK ("payment_methods"."kind" <> 'recurring' or "payment_methods"."amount_minor" is not null),
	CONSTRAINT "payment_methods_expiry_after_issue" CHECK ("payment_methods"."expires_at" > "payment_methods"."issued_at"),
	CONSTRAINT "payment_methods_deactivation_reason" CHECK (("payment_methods"."deactivated_at" is null) = ("payment_methods"."deactivation_reason" is null)),
	CONSTRAINT "payment_methods_unusable_reason" CHECK (("payment_methods"."unusable_at" is null) = ("payment_methods"."unusable_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"status" "subscription_status" DEFAULT 'pending_enrollment' NOT NULL,
	"timezone" text DEFAULT 'Asia/Qatar' NOT NULL,
	"billing_anchor" timestamp with time zone,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"next_billing_at" timestamp with time zone,
	"trial_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"canceled_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"ended_reason" text,
	"payment_method_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_timezone_present" CHECK (btrim("subscriptions"."timezone") <> ''),
	CONSTRAINT "subscriptions_billing_only_when_live" CHECK ("subscriptions"."next_billing_at" is null or "subscriptions"."status" in ('trialing', 'active', 'past_due')),
	CONSTRAINT "subscriptions_started_has_anchor" CHECK ("subscriptions"."billing_anchor" is not null or "subscriptions"."status" in ('pending_enrollment', 'canceled')),
	CONSTRAINT "subscriptions_period_both_bounds" CHECK (("subscriptions"."current_period_start" is null) = ("subscriptions"."current_period_end" is null)),
	CONSTRAINT "subscriptions_period_order" CHECK ("subscriptions"."current_period_end" > "subscriptions"."current_period_start"),
	CONSTRAINT "subscriptions_canceled_has_time" CHECK ("subscriptions"."status" <> 'canceled' or "subscriptions"."canceled_at" is not null),
	CONSTRAINT "subscriptions_paused_has_time" CHECK ("subscriptions"."status" <> 'paused' or "subscriptions"."paused_at" is not null),
	CONSTRAINT "subscriptions_trialing_has_end" CHECK ("subscriptions"."status" <> 'trialing' or "subscriptions"."trial_end" is not null)
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD CONSTRAINT "charge_attempts_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_charge_attempt_id_charge_attempts_id_fk" FOREIGN KEY ("charge_attempt_id") REFERENCES "public"."charge_attempts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charge_attempts_one_open_per_charge" ON "charge_attempts" USING btree ("charge_id") WHERE "charge_attempts"."status" in ('in_flight', 'unknown');--> statement-breakpoint
CREATE INDEX "charges_due_idx" ON "charges" USING btree ("next_attempt_at") WHERE "charges"."status" in ('scheduled', 'retrying') and "charges"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "invoices_pending_idx" ON "invoices" USING btree ("created_at") WHERE "invoices"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "refunds_charge_idx" ON "refunds" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_live_per_charge" ON "refunds" USING btree ("charge_id") WHERE "refunds"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "events_subscription_idx" ON "events" USING btree ("subscription_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending' and "webhook_deliveries"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "enrollments_subscription_idx" ON "enrollments" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "enrollments_one_pending_per_subscription" ON "enrollments" USING btree ("subscription_id") WHERE "enrollments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_methods_customer_idx" ON "payment_methods" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "payment_methods_subscription_idx" ON "payment_methods" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "subscriptions_customer_idx" ON "subscriptions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "subscriptions_plan_idx" ON "subscriptions" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "subscriptions_due_idx" ON "subscriptions" USING btree ("next_billing_at") WHERE "subscriptions"."status" in ('trialing', 'active', 'past_due') and "subscriptions"."next_billing_at" is not null;