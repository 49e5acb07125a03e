ALTER TABLE "gateway_payment_records" DROP CONSTRAINT "gateway_payment_records_charge_id_charges_id_fk";
--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_charge_id_charges_id_fk";
--> statement-breakpoint
ALTER TABLE "receipts" DROP CONSTRAINT "receipts_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_events_id_fk";
--> statement-breakpoint
ALTER TABLE "customer_messages" DROP CONSTRAINT "customer_messages_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "customer_messages" DROP CONSTRAINT "customer_messages_event_id_events_id_fk";
--> statement-breakpoint
ALTER TABLE "customer_messages" DROP CONSTRAINT "customer_messages_charge_id_charges_id_fk";
