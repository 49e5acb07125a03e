CREATE TYPE "public"."message_kind" AS ENUM('receipt', 'payment_due', 'payment_failed', 'card_expiring', 'renewal_upcoming', 'trial_ending', 'subscription_canceled', 'refund_issued');--> statement-breakpoint
CREATE TYPE "public"."message_status" AS ENUM('pending', 'sent', 'kept', 'failed', 'suppressed');--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint NOT NULL,
	"refund_id" uuid NOT NULL,
	"charge_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"tax_rate_bp" integer NOT NULL,
	"tax_label" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_number_key" UNIQUE("number"),
	CONSTRAINT "credit_notes_refund_key" UNIQUE("refund_id"),
	CONSTRAINT "credit_notes_number_positive" CHECK ("credit_notes"."number" > 0),
	CONSTRAINT "credit_notes_amount_positive" CHECK ("credit_notes"."amount_minor" > 0),
	CONSTRAINT "credit_notes_currency_code" CHECK ("credit_notes"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "credit_notes_tax_rate_range" CHECK ("credit_notes"."tax_rate_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "document_series" (
	"series" text PRIMARY KEY NOT NULL,
	"last_number" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "document_series_last_number_non_negative" CHECK ("document_series"."last_number" >= 0)
);
--> statement-breakpoint
CREATE TABLE "gateway_payment_records" (
	"charge_id" uuid PRIMARY KEY NOT NULL,
	"status" "invoice_status" DEFAULT 'pending' NOT NULL,
	"gateway_invoice_id" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_payment_records_attempts_non_negative" CHECK ("gateway_payment_records"."attempts" >= 0),
	CONSTRAINT "gateway_payment_records_created_has_id" CHECK ("gateway_payment_records"."status" <> 'created' or "gateway_payment_records"."gateway_invoice_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "merchant_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"tax_rate_bp" integer DEFAULT 0 NOT NULL,
	"tax_label" text DEFAULT 'VAT' NOT NULL,
	"messages_disabled" "message_kind"[] DEFAULT '{}' NOT NULL,
	"record_paid_invoices" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_settings_single_row" CHECK ("merchant_settings"."id" = 1),
	CONSTRAINT "merchant_settings_tax_rate_range" CHECK ("merchant_settings"."tax_rate_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" bigint NOT NULL,
	"charge_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"tax_rate_bp" integer NOT NULL,
	"tax_label" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_number_key" UNIQUE("number"),
	CONSTRAINT "receipts_charge_key" UNIQUE("charge_id"),
	CONSTRAINT "receipts_number_positive" CHECK ("receipts"."number" > 0),
	CONSTRAINT "receipts_amount_non_negative" CHECK ("receipts"."amount_minor" >= 0),
	CONSTRAINT "receipts_currency_code" CHECK ("receipts"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "receipts_tax_rate_range" CHECK ("receipts"."tax_rate_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "customer_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"event_id" bigint NOT NULL,
	"charge_id" uuid,
	"kind" "message_kind" NOT NULL,
	"language" "language" NOT NULL,
	"to_address" text NOT NULL,
	"status" "message_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"message_id" text,
	"subject" text,
	"text_body" text,
	"html_body" text,
	"last_response" text,
	"sent_at" timestamp with time zone,
	"resend_of" uuid,
	"requested_by" text DEFAULT 'system' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_messages_attempts_non_negative" CHECK ("customer_messages"."attempts" >= 0),
	CONSTRAINT "customer_messages_due_only_when_pending" CHECK ("customer_messages"."next_attempt_at" is null or "customer_messages"."status" = 'pending'),
	CONSTRAINT "customer_messages_sent_has_time" CHECK (("customer_messages"."status" = 'sent') = ("customer_messages"."sent_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "message_opt_outs" "message_kind"[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_payment_records" ADD CONSTRAINT "gateway_payment_records_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_messages" ADD CONSTRAINT "customer_messages_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_messages" ADD CONSTRAINT "customer_messages_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_messages" ADD CONSTRAINT "customer_messages_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_messages" ADD CONSTRAINT "customer_messages_resend_of_customer_messages_id_fk" FOREIGN KEY ("resend_of") REFERENCES "public"."customer_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_charge_idx" ON "credit_notes" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "credit_notes_customer_idx" ON "credit_notes" USING btree ("customer_id","issued_at");--> statement-breakpoint
CREATE INDEX "gateway_payment_records_due_idx" ON "gateway_payment_records" USING btree ("next_attempt_at") WHERE "gateway_payment_records"."status" = 'pending' and "gateway_payment_records"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "receipts_customer_idx" ON "receipts" USING btree ("customer_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_messages_event_kind_key" ON "customer_messages" USING btree ("event_id","kind") WHERE "customer_messages"."resend_of" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_messages_failed_charge_key" ON "customer_messages" USING btree ("charge_id") WHERE "customer_messages"."kind" = 'payment_failed' and "customer_messages"."resend_of" is null;--> statement-breakpoint
CREATE INDEX "customer_messages_due_idx" ON "customer_messages" USING btree ("next_attempt_at") WHERE "customer_messages"."status" = 'pending' and "customer_messages"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX "customer_messages_customer_idx" ON "customer_messages" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "customer_messages_created_idx" ON "customer_messages" USING btree ("created_at");--> statement-breakpoint
INSERT INTO "merchant_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "document_series" ("series") VALUES ('receipt'), ('credit_note') ON CONFLICT DO NOTHING;
