import { Gauge, Registry } from "prom-client";
import { SUBSCRIPTION_STATES } from "../billing/index.js";
import { collectionPaused } from "../breaker/index.js";
import { type EngineContext, refreshClock } from "../context/index.js";
import { pgInstantOrNull, pgInteger } from "../db/index.js";
import { queueDepths } from "../queue/index.js";
import { lastTickRun } from "../scheduler/index.js";

/**
 * The gauges /metrics reads from Postgres and the queues when it is scraped, so they show the
 * engine's state whichever process changed it (counters, in src/metrics, are per process). Each
 * read is one indexed query, and is abandoned after READ_TIMEOUT_MS (a postgres.js query is
 * cancelled): a slow database never hangs a scrape. A gauge whose read failed or timed out has no
 * sample in that scrape (alert on absent()), rather than a stale or zero value, and the failure is
 * logged.
 */
export const READ_TIMEOUT_MS = 2_000;

type GaugeContext = Pick<EngineContext, "db" | "queues" | "clock" | "logger">;

interface Sample<L extends string> {
  labels?: Record<L, string>;
  value: number;
}

/** A registry of its own for `ctx`: a process may serve several contexts (tests do). */
export function scrapeGauges(ctx: GaugeContext): Registry {
  const registry = new Registry();
  const sql = ctx.db.$client;
  const gauge = <L extends string>(spec: {
    name: string;
    help: string;
    labelNames?: readonly L[];
    read: () => Promise<Sample<L>[]>;
  }) =>
    new Gauge<L>({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labelNames ?? [],
      registers: [registry],
      async collect() {
        let samples: Sample<L>[] | undefined;
        try {
          samples = await spec.read();
        } catch (error) {
          ctx.logger.warn({ err: error, gauge: spec.name }, "metrics gauge could not be read");
        }
        // Set in one synchronous step, so two scrapes at once never interleave their samples. A
        // gauge without labels resets to 0: its sample is removed, so "unknown" never reads as 0.
        this.reset();
        if (spec.labelNames === undefined) this.remove({} as Record<L, string>);
        for (const { labels, value } of samples ?? []) {
          if (labels) this.set(labels, value);
          else this.set(value);
        }
      },
    });

  gauge({
    name: "billing_queue_jobs",
    help: "Jobs in each BullMQ queue by state (waiting, active, delayed, failed)",
    labelNames: ["queue", "state"],
    read: async () =>
      (await bounded(queueDepths(ctx.queues))).flatMap((depth) =>
        (["waiting", "active", "delayed", "failed"] as const).map((state) => ({
          labels: { queue: depth.queue, state },
          value: depth[state],
        })),
      ),
  });

  gauge({
    name: "billing_charges_held",
    help: "Charges held for an operator (status needs_review)",
    read: async () => {
      const [row] = await bounded(
        sql<{ count: string }[]>`select count(*)::text as count from charges where status = 'needs_review'`,
      );
      return [{ value: pgInteger(row?.count ?? "0") }];
    },
  });

  gauge({
    name: "billing_subscriptions",
    help: "Subscriptions by status",
    labelNames: ["status"],
    read: async () => {
      const rows = await bounded(
        sql<{ status: string; count: string }[]>`
          select status::text, count(*)::text as count from subscriptions group by status`,
      );
      const counts = new Map(rows.map((row) => [row.status, pgInteger(row.count)]));
      return SUBSCRIPTION_STATES.map((status) => ({ labels: { status }, value: counts.get(status) ?? 0 }));
    },
  });

  gauge({
    name: "billing_gateway_breaker_open",
    help: "1 while the gateway circuit breaker holds collection paused, else 0",
    read: async () => [{ value: (await bounded(collectionPaused(sql))) ? 1 : 0 }],
  });

  gauge({
    name: "billing_oldest_due_charge_lag_seconds",
    help: "How long the longest-waiting due charge (scheduled or retrying) has been due, by the billing clock; 0 when none is",
    read: async () => {
      // Read here, within the gauge's bound, not by the server's per-request hook: a scrape must
      // answer (without this gauge) while the database is down.
      const now = await bounded(refreshClock(ctx.clock));
      const [row] = await bounded(
        sql<{ oldest: string | null }[]>`
          select min(next_attempt_at)::text as oldest from charges
          where status in ('scheduled', 'retrying') and next_attempt_at is not null
            and next_attempt_at <= ${now.toUTC().toISO()}::timestamptz`,
      );
      const oldest = pgInstantOrNull(row?.oldest ?? null);
      return [{ value: oldest ? Math.max(0, now.diff(oldest).as("seconds")) : 0 }];
    },
  });

  gauge({
    name: "billing_tick_last_run_age_seconds",
    help: "Seconds since the last billing tick started, by Postgres's clock (no sample before the first)",
    read: async () => {
      const run = await bounded(lastTickRun(sql));
      return run ? [{ value: run.ageSeconds }] : [];
    },
  });

  return registry;
}

/** `read` within READ_TIMEOUT_MS; a postgres.js query still running then is cancelled. */
function bounded<T>(read: PromiseLike<T> & { cancel?: () => unknown }): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      read.cancel?.();
      reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`));
    }, READ_TIMEOUT_MS);
  });
  return Promise.race([read, timeout]).finally(() => clearTimeout(timer));
}
