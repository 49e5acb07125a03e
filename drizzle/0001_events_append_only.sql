-- events is the audit log: rows are only ever inserted. Any UPDATE, DELETE or TRUNCATE of the
-- table raises, whatever role or tool issues it (statement-level, so even one matching no rows).
CREATE FUNCTION "events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'events is append-only: % refused', TG_OP
    USING ERRCODE = 'restrict_violation',
          HINT = 'Record a new event instead of changing or removing an old one.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "events_append_only"
  BEFORE UPDATE OR DELETE OR TRUNCATE ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION "events_refuse_change"();
