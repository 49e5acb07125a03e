-- Each charge names the plan it bills. A charge made before this migration gets the plan its
-- subscription had when the charge was created: the plan a later applied change moved away from,
-- else the subscription's plan now; a plan change's own charge gets the plan it moved to.
ALTER TABLE "charges" ADD COLUMN "plan_id" uuid;--> statement-breakpoint
UPDATE "charges" c SET "plan_id" = coalesce(
  (SELECT pc."to_plan_id" FROM "plan_changes" pc WHERE pc."id" = c."plan_change_id"),
  (SELECT pc."from_plan_id" FROM "plan_changes" pc
    WHERE pc."subscription_id" = c."subscription_id" AND pc."status" = 'applied' AND pc."applied_at" > c."created_at"
    ORDER BY pc."applied_at" LIMIT 1),
  (SELECT s."plan_id" FROM "subscriptions" s WHERE s."id" = c."subscription_id")
);--> statement-breakpoint
ALTER TABLE "charges" ALTER COLUMN "plan_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;
