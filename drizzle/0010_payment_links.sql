-- awaiting_payment is added here and used only by later statements and code: a new enum value
-- cannot be used in the transaction that adds it (the migrator applies pending files in one).
CREATE TYPE "public"."attempt_channel" AS ENUM('card_token', 'checkout');--> statement-breakpoint
CREATE TYPE "public"."collection_method" AS ENUM('charge_automatically', 'send_payment_link');--> statement-breakpoint
ALTER TYPE "public"."charge_status" ADD VALUE 'awaiting_payment' BEFORE 'paid';--> statement-breakpoint
CREATE TABLE "payment_links" (
	"charge_id" uuid PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"reminders_sent" integer DEFAULT 0 NOT NULL,
	"next_reminder_at" timestamp with time zone,
	"last_reminder_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	CONSTRAINT "payment_links_reminders_non_negative" CHECK ("payment_links"."reminders_sent" >= 0),
	CONSTRAINT "payment_links_reminded_has_time" CHECK (("payment_links"."reminders_sent" = 0) = ("payment_links"."last_reminder_at" is null))
);
--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD COLUMN "channel" "attempt_channel" DEFAULT 'card_token' NOT NULL;--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "collection_method" "collection_method" DEFAULT 'charge_automatically' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "trial_without_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "collection_method" "collection_method" DEFAULT 'charge_automatically' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_links_due_idx" ON "payment_links" USING btree ("next_reminder_at") WHERE "payment_links"."next_reminder_at" is not null;--> statement-breakpoint
CREATE INDEX "payment_links_sent_idx" ON "payment_links" USING btree ("sent_at");--> statement-breakpoint
ALTER TABLE "charge_attempts" ADD CONSTRAINT "charge_attempts_checkout_url_on_checkout" CHECK ("charge_attempts"."checkout_url" is null or "charge_attempts"."channel" = 'checkout');--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_cardless_trial_has_trial" CHECK (not "plans"."trial_without_card" or "plans"."trial_days" > 0);