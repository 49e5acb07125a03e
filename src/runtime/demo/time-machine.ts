import { and, count, eq, exists, gt, inArray, lt, lte, min, ne, notExists, or, sql } from "drizzle-orm";
import type { DateTime } from "luxon";
import { runTick } from "../../app/index.js";
import { toInstant } from "../../clock/index.js";
import { type EngineContext, isSharedClock, type SharedClock } from "../../context/index.js";
import {
  charges,
  customerMessages,
  invoices,
  planUsagePrices,
  subscriptions,
} from "../../db/schema/index.js";
import { runWaitingStatusChecks } from "../../scheduler/index.js";

/**
 * Drives an in-process engine through time for the demo: moves the shared billing clock, runs the
 * scheduler's tick (src/app/tick.ts: billing, usage once a period closed, webhooks, expiring-card
 * notices, recorded in tick_runs), and waits, by reading the database, until the workers have done
 * what became due.
 * No sleeping for a fixed time: the engine is polled until it is idle, within a deadline.
 */

/** Something people do between billing runs, at a billing-clock instant. */
export interface Moment {
  at: DateTime;
  what: string;
  run(): Promise<void>;
}

const POLL_MS = 50;
const IDLE_DEADLINE_MS = 60_000;
/** Ticks per settle() before giving up: each round only follows up the previous one's work. */
const MAX_ROUNDS = 10;

export class TimeMachine {
  readonly clock: SharedClock;

  constructor(readonly ctx: EngineContext) {
    if (!isSharedClock(ctx.clock)) throw new Error("the time machine needs BILLING_CLOCK=controllable");
    this.clock = ctx.clock;
  }

  now(): DateTime {
    return this.clock.now();
  }

  /**
   * Work the workers have not finished: charges due or being collected, invoices not yet created,
   * customer messages a worker has claimed (their lease runs ahead of the clock). A message not yet
   * claimed needs a tick to be dispatched: settle() runs another while a tick dispatched any.
   */
  private async busy(): Promise<number> {
    const now = this.now().toJSDate();
    const [due] = await this.ctx.db
      .select({ n: count() })
      .from(charges)
      .where(
        or(
          eq(charges.status, "processing"),
          and(inArray(charges.status, ["scheduled", "retrying"]), lte(charges.nextAttemptAt, now)),
          and(
            eq(charges.status, "uncollectible"),
            notExists(this.ctx.db.select().from(invoices).where(eq(invoices.chargeId, charges.id))),
          ),
        ),
      );
    const [pending] = await this.ctx.db
      .select({ n: count() })
      .from(invoices)
      .where(eq(invoices.status, "pending"));
    const [messages] = await this.ctx.db
      .select({ n: count() })
      .from(customerMessages)
      .where(
        and(
          eq(customerMessages.status, "pending"),
          gt(customerMessages.attempts, 0),
          gt(customerMessages.nextAttemptAt, now),
        ),
      );
    return (due?.n ?? 0) + (pending?.n ?? 0) + (messages?.n ?? 0);
  }

  private async waitIdle(): Promise<void> {
    const deadline = Date.now() + IDLE_DEADLINE_MS;
    while ((await this.busy()) > 0) {
      if (Date.now() > deadline) {
        throw new Error(
          `the workers still had due work after ${IDLE_DEADLINE_MS} ms at ${this.now().toISO()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Runs billing ticks, waiting for the workers after each, until a tick finds nothing to do. */
  async settle(): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const tick = await runTick(this.ctx);
      // No scheduler process runs here to take the status checks the tick hands out.
      await runWaitingStatusChecks(this.ctx);
      await this.waitIdle();
      const work =
        tick.chargesCreated +
        tick.chargesEnqueued +
        tick.reenqueued +
        tick.invoicesEnqueued +
        tick.tokenDeactivationsEnqueued +
        tick.messagesDispatched +
        tick.expiringNotices +
        tick.trialEndingNotices +
        tick.renewalNotices;
      if (work + tick.subscriptionsCanceled === 0) return;
    }
    throw new Error(`billing ticks kept finding work after ${MAX_ROUNDS} rounds at ${this.now().toISO()}`);
  }

  /** Moves the clock forwards to `instant` (never back). */
  async moveTo(instant: DateTime): Promise<void> {
    if (instant > this.now()) await this.clock.set(instant);
  }

  /**
   * Moves the clock from instant to instant up to `end`: to each moment and to each instant the
   * engine has work due, whichever comes first, running the moment there, then the billing tick
   * until the workers are idle. `step` hears each stop: the moment's `what`, or undefined for a
   * billing run alone.
   */
  async play(
    end: DateTime,
    moments: readonly Moment[],
    step: (at: DateTime, what: string | undefined) => void = () => {},
  ): Promise<void> {
    const pending = [...moments].sort((a, b) => a.at.toMillis() - b.at.toMillis());
    for (;;) {
      const due = await this.nextDue();
      const moment = pending[0];
      const next = [due, moment?.at]
        .filter((at) => at !== undefined)
        .sort((a, b) => a.toMillis() - b.toMillis())[0];
      if (!next || next > end) return;
      await this.moveTo(next);
      if (moment && moment.at <= next) {
        pending.shift();
        step(next, moment.what);
        await moment.run();
      } else {
        step(next, undefined);
      }
      await this.settle();
    }
  }

  /**
   * The next instant the engine has work: a subscription to bill, a charge to retry, a renewal or a
   * trial's end coming within its notice days (the customer is told before money moves), or a
   * period's usage to charge.
   */
  async nextDue(): Promise<DateTime | undefined> {
    const [billing] = await this.ctx.db
      .select({ at: min(subscriptions.nextBillingAt) })
      .from(subscriptions)
      .where(inArray(subscriptions.status, ["trialing", "active", "past_due"]));
    const [retry] = await this.ctx.db
      .select({ at: min(charges.nextAttemptAt) })
      .from(charges)
      .where(inArray(charges.status, ["scheduled", "retrying"]));
    const notices = await Promise.all(
      (
        [
          ["active", this.ctx.config.RENEWAL_NOTICE_DAYS],
          ["trialing", this.ctx.config.TRIAL_ENDING_NOTICE_DAYS],
        ] as const
      )
        .filter(([, days]) => days > 0)
        .map(async ([status, days]) => {
          const notice = sql<Date>`${subscriptions.nextBillingAt} - make_interval(days => ${days}::int)`;
          const [row] = await this.ctx.db
            .select({ at: sql<Date | null>`min(${notice})`.mapWith(subscriptions.nextBillingAt) })
            .from(subscriptions)
            .where(
              and(
                eq(subscriptions.status, status),
                sql`${notice} > ${this.now().toUTC().toISO()}::timestamptz`,
              ),
            );
          return row?.at;
        }),
    );
    const usage = await this.nextUsageClose();
    const instants = [billing?.at, retry?.at, ...notices, usage].filter(
      (at): at is Date => at instanceof Date,
    );
    if (instants.length === 0) return undefined;
    return toInstant(new Date(Math.min(...instants.map((at) => at.getTime()))));
  }

  /**
   * When the next period's usage is charged: the end plus USAGE_GRACE_HOURS of a period charge, still
   * ahead, of a subscription not canceled whose plan priced usage before the period ended (the
   * periods usage-billing/due-periods.ts finds due once that instant has come).
   */
  private async nextUsageClose(): Promise<Date | undefined> {
    const closes = sql<Date>`${charges.periodEnd} + make_interval(hours => ${this.ctx.config.USAGE_GRACE_HOURS}::int)`;
    const [row] = await this.ctx.db
      .select({ at: sql<Date | null>`min(${closes})`.mapWith(charges.periodEnd) })
      .from(charges)
      .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
      .where(
        and(
          eq(charges.kind, "period"),
          ne(subscriptions.status, "canceled"),
          sql`${closes} > ${this.now().toUTC().toISO()}::timestamptz`,
          exists(
            this.ctx.db
              .select()
              .from(planUsagePrices)
              .where(
                and(
                  eq(planUsagePrices.planId, charges.planId),
                  lt(planUsagePrices.createdAt, charges.periodEnd),
                ),
              ),
          ),
        ),
      );
    return row?.at ?? undefined;
  }
}
