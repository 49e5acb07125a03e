-- updated_at follows every UPDATE, including raw SQL from the scheduler and hand-run fixes.
CREATE FUNCTION "touch_updated_at"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."updated_at" := now();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "subscriptions_touch_updated_at" BEFORE UPDATE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();
--> statement-breakpoint
CREATE TRIGGER "charges_touch_updated_at" BEFORE UPDATE ON "charges"
  FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();
--> statement-breakpoint
CREATE TRIGGER "clock_state_touch_updated_at" BEFORE UPDATE ON "clock_state"
  FOR EACH ROW EXECUTE FUNCTION "touch_updated_at"();
