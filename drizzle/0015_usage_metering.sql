CREATE TYPE "public"."meter_aggregation" AS ENUM('sum', 'count', 'max', 'unique_count', 'last');--> statement-breakpoint
CREATE TABLE "meters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"aggregation" "meter_aggregation" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "meters_code_key" UNIQUE("code"),
	CONSTRAINT "meters_code_shape" CHECK ("meters"."code" ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
	CONSTRAINT "meters_name_present" CHECK (btrim("meters"."name") <> '')
);
--> statement-breakpoint
CREATE TABLE "usage_event_keys" (
	"subscription_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_event_keys_pkey" PRIMARY KEY("subscription_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "usage_events" (
	"subscription_id" uuid NOT NULL,
	"meter_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"quantity" bigint NOT NULL,
	"distinct_value" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "usage_events_pkey" PRIMARY KEY("subscription_id","occurred_at","event_id"),
	CONSTRAINT "usage_events_event_id_length" CHECK (char_length("usage_events"."event_id") between 1 and 255),
	CONSTRAINT "usage_events_quantity_non_negative" CHECK ("usage_events"."quantity" >= 0),
	CONSTRAINT "usage_events_distinct_value_length" CHECK (char_length("usage_events"."distinct_value") <= 255)
) PARTITION BY RANGE ("occurred_at");
--> statement-breakpoint
-- Hand-written (drizzle cannot express partitions): the month partitions of usage_events, one per
-- UTC month, named usage_events_YYYY_MM. Creates those missing among the `months` months from the
-- one holding `from_month`, and returns how many it created. Safe to run concurrently: a partition
-- another session created first is taken as made. Called by ingestion for a month it has not seen
-- yet and by the usage sweep ahead of time (src/usage/partitions.ts). There is no default
-- partition: it would have to be scanned whenever a month is added, and the functions above make
-- one unnecessary. An old month goes with
--   ALTER TABLE usage_events DETACH PARTITION usage_events_2026_01 CONCURRENTLY;
--   DROP TABLE usage_events_2026_01;
CREATE FUNCTION "public"."usage_ensure_partitions"(from_month timestamptz, months integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	first_month timestamp := date_trunc('month', from_month AT TIME ZONE 'UTC');
	lower_bound timestamp;
	partition_name text;
	created integer := 0;
BEGIN
	FOR i IN 0 .. months - 1 LOOP
		lower_bound := first_month + make_interval(months => i);
		partition_name := 'usage_events_' || to_char(lower_bound, 'YYYY_MM');
		CONTINUE WHEN to_regclass(format('public.%I', partition_name)) IS NOT NULL;
		BEGIN
			EXECUTE format(
				'CREATE TABLE public.%I PARTITION OF public.usage_events FOR VALUES FROM (%L) TO (%L)',
				partition_name,
				to_char(lower_bound, 'YYYY-MM-DD"T"HH24:MI:SS"+00"'),
				to_char(lower_bound + interval '1 month', 'YYYY-MM-DD"T"HH24:MI:SS"+00"')
			);
			created := created + 1;
		EXCEPTION WHEN duplicate_table OR unique_violation THEN
			NULL; -- another session created it first
		END;
	END LOOP;
	RETURN created;
END
$$;
--> statement-breakpoint
-- The previous, current and next three months exist from the start; later ones come ahead of time.
SELECT "public"."usage_ensure_partitions"(now() - interval '1 month', 5);
