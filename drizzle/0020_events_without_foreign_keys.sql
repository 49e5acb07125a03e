ALTER TABLE "events" DROP CONSTRAINT "events_subscription_id_subscriptions_id_fk";
--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_charge_id_charges_id_fk";
