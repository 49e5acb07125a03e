-- Transaction ids and plan changes stay unique where set. Partial, because most charges never have
-- a plan change and none has a transaction id before it is paid, nor an attempt before its reply:
-- every version of such a row added a NULL entry to each index (src/db/schema/billing.ts).
ALTER TABLE "charge_attempts" DROP CONSTRAINT "charge_attempts_gateway_transaction_key";--> statement-breakpoint
ALTER TABLE "charges" DROP CONSTRAINT "charges_plan_change_key";--> statement-breakpoint
ALTER TABLE "charges" DROP CONSTRAINT "charges_paid_transaction_key";--> statement-breakpoint
CREATE UNIQUE INDEX "charge_attempts_gateway_transaction_key" ON "charge_attempts" USING btree ("gateway_transaction_id") WHERE "charge_attempts"."gateway_transaction_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_plan_change_key" ON "charges" USING btree ("plan_change_id") WHERE "charges"."plan_change_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_paid_transaction_key" ON "charges" USING btree ("paid_transaction_id") WHERE "charges"."paid_transaction_id" is not null;