-- The shared gateway budget when queues run on PostgreSQL (src/queue/gateway-budget-postgres.ts),
-- the same rules as the Redis one (src/queue/gateway-budget.ts): per merchant account, a token
-- bucket pacing the calls, a sliding log of reservations, in-flight counts under per-process leases,
-- and a rate halved by a 429 that climbs back. Unlogged: a budget is pacing, not money, and after a
-- crash it starts afresh, as the Redis one does when Redis restarts. Times are epoch ms on the
-- database's clock, which every process shares.
CREATE UNLOGGED TABLE "gateway_budgets" (
  "account" text PRIMARY KEY,
  "seq" bigint NOT NULL DEFAULT 0,
  "tokens" double precision,
  "tokens_at" bigint,
  "slow_rate" integer,
  "slow_at" bigint
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "gateway_budget_log" (
  "account" text NOT NULL,
  "id" text NOT NULL,
  "granted" integer NOT NULL,
  "at" bigint NOT NULL,
  PRIMARY KEY ("account", "id")
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "gateway_budget_flying" (
  "account" text NOT NULL,
  "process" text NOT NULL,
  "open" integer NOT NULL,
  "lease_until" bigint NOT NULL,
  PRIMARY KEY ("account", "process")
);
--> statement-breakpoint
-- One call per operation (reserve, give, sent, throttle), serialised per account by the lock on its
-- gateway_budgets row. Returns the calls granted (or, for throttle, the rate now allowed), how long
-- to wait when nothing was granted, and the reservation's id ('' when no rate is shared).
CREATE FUNCTION "gateway_budget"(
  op text, p_account text, p_process text, p_max integer, p_least integer, p_returning integer,
  p_rate integer, p_cap integer, p_window integer, p_lease integer, p_recover integer,
  p_ids text[], p_burst integer,
  OUT granted integer, OUT wait_ms integer, OUT reservation text
) LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
  b "gateway_budgets"%ROWTYPE;
  allowed integer := p_rate;
  used integer := 0;
  free integer := p_max;
  need integer := p_least;
  per_ms double precision := 0;
  capacity integer := 0;
  bucket_tokens double precision := 0;
  open_calls integer := 0;
  freed integer;
  e record;
BEGIN
  granted := 0;
  wait_ms := 0;
  reservation := '';
  -- A process that cannot have the account's row soon sends nothing rather than wait (as the Redis
  -- budget's two-second command timeout).
  PERFORM set_config('lock_timeout', '2s', true);
  SELECT * INTO b FROM "gateway_budgets" WHERE "account" = p_account FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO "gateway_budgets" ("account") VALUES (p_account) ON CONFLICT DO NOTHING;
    SELECT * INTO b FROM "gateway_budgets" WHERE "account" = p_account FOR UPDATE;
  END IF;

  IF p_cap > 0 THEN
    IF p_returning > 0 THEN
      UPDATE "gateway_budget_flying" SET "open" = greatest("open" - p_returning, 0)
      WHERE "account" = p_account AND "process" = p_process;
    END IF;
    -- A process whose lease ran out stopped calling: its calls are no longer counted.
    DELETE FROM "gateway_budget_flying" WHERE "account" = p_account AND "lease_until" <= now_ms;
    INSERT INTO "gateway_budget_flying" ("account", "process", "open", "lease_until")
    VALUES (p_account, p_process, 0, now_ms + p_lease)
    ON CONFLICT ("account", "process") DO UPDATE SET "lease_until" = excluded."lease_until";
  END IF;

  IF p_rate > 0 AND b."slow_rate" IS NOT NULL THEN
    allowed := least(p_rate, b."slow_rate" + floor((now_ms - b."slow_at") * p_rate::numeric / p_recover)::integer);
    IF allowed >= p_rate THEN
      UPDATE "gateway_budgets" SET "slow_rate" = NULL, "slow_at" = NULL WHERE "account" = p_account;
      b."slow_at" := NULL;
    END IF;
  END IF;

  IF op = 'throttle' THEN
    -- Once a second at most: the 429s of one burst answer the same excess.
    IF b."slow_at" IS NOT NULL AND now_ms - b."slow_at" < 1000 THEN
      granted := allowed;
      RETURN;
    END IF;
    granted := greatest(1, allowed / 2);
    UPDATE "gateway_budgets" SET "slow_rate" = granted, "slow_at" = now_ms WHERE "account" = p_account;
    RETURN;
  END IF;
  IF op = 'give' THEN
    RETURN;
  END IF;
  IF op = 'sent' THEN
    UPDATE "gateway_budget_log" SET "at" = now_ms WHERE "account" = p_account AND "id" = ANY (p_ids);
    RETURN;
  END IF;

  IF p_rate > 0 THEN
    DELETE FROM "gateway_budget_log" WHERE "account" = p_account AND "at" <= now_ms - p_window;
    SELECT coalesce(sum(l."granted"), 0) INTO used FROM "gateway_budget_log" l WHERE l."account" = p_account;
    per_ms := allowed::double precision / p_window;
    capacity := greatest(1, floor(allowed::numeric * p_burst / p_window)::integer);
    bucket_tokens := capacity;
    IF b."tokens" IS NOT NULL THEN
      bucket_tokens := least(capacity, b."tokens" + (now_ms - b."tokens_at") * per_ms);
    END IF;
    free := least(free, allowed - used, floor(bucket_tokens)::integer);
    need := least(need, capacity);
  END IF;
  IF p_cap > 0 THEN
    SELECT coalesce(sum(f."open"), 0) INTO open_calls FROM "gateway_budget_flying" f WHERE f."account" = p_account;
    free := least(free, p_cap - open_calls);
    need := least(need, p_cap);
  END IF;
  need := greatest(1, need);

  IF free >= need THEN
    IF p_rate > 0 THEN
      UPDATE "gateway_budgets" SET "seq" = "seq" + 1, "tokens" = bucket_tokens - free, "tokens_at" = now_ms
      WHERE "account" = p_account
      RETURNING "seq"::text INTO reservation;
      INSERT INTO "gateway_budget_log" ("account", "id", "granted", "at") VALUES (p_account, reservation, free, now_ms);
    END IF;
    IF p_cap > 0 THEN
      UPDATE "gateway_budget_flying" SET "open" = "open" + free WHERE "account" = p_account AND "process" = p_process;
    END IF;
    granted := free;
    RETURN;
  END IF;

  -- Paced: until the bucket holds enough. Window-bound: until the oldest reservations leave it.
  -- Else in-flight-bound: soon.
  wait_ms := 5;
  IF p_rate > 0 AND bucket_tokens < need THEN
    wait_ms := ceil((need - bucket_tokens) / per_ms)::integer;
  END IF;
  IF p_rate > 0 AND allowed - used < need THEN
    freed := allowed - used;
    FOR e IN SELECT l."granted", l."at" FROM "gateway_budget_log" l WHERE l."account" = p_account ORDER BY l."at", l."id" LOOP
      freed := freed + e."granted";
      IF freed >= need THEN
        wait_ms := greatest(wait_ms, (e."at" + p_window - now_ms)::integer);
        EXIT;
      END IF;
    END LOOP;
  END IF;
  wait_ms := greatest(1, wait_ms);
END;
$$;
