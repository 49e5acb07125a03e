/**
 * A gateway whose status check is broken everywhere (every CheckStatus reply malformed) while it
 * drops the reply of 30 % of the payments it takes. No lost reply can be settled, which is the
 * gateway's failure, not each charge's: the breaker must open on failed status checks, no payment
 * may be sent after that, and the attempts whose reply was lost must wait, uncounted, instead of
 * going to review one by one (before, 66 of 200 did, with the breaker closed, and the database
 * said 134 paid while the gateway had taken 200). Then CheckStatus answers again and, with the
 * breaker still open (nobody resumes it), every held attempt is reconciled: the run ends with the
 * breaker open, the database equal to the ledger, nothing held for review, and the periods not
 * sent yet (if any: the status check is first asked once the first wave of charge jobs is done)
 * waiting, due, not lost.
 */
import { breakerState } from "../../src/breaker/index.js";
import { collections, readLedgerPayments } from "../bench/ledger.js";
import type { Harness } from "./harness.js";
import type { Check, Scenario } from "./scenario.js";
import { settle, waitFor } from "./settle.js";

const DROPPED = 0.3;
/** What the gateway client makes of one status check at most: the call and its two read retries. */
const CALLS_PER_CHECK = 3;

async function checkStatusHits(h: Harness): Promise<number> {
  const reply = await fetch(`${h.sim.url}/_sim/faults`);
  const { faults } = (await reply.json()) as { faults: { operation: string; hits: number }[] };
  return faults.filter((f) => f.operation === "CheckStatus").reduce((sum, f) => sum + f.hits, 0);
}

async function count(h: Harness, query: "unknown" | "review" | "in_flight" | "unsent"): Promise<number> {
  const [row] =
    query === "review"
      ? await h.sql<{ n: string }[]>`select count(*) as n from charges where status = 'needs_review'`
      : query === "unsent"
        ? await h.sql<{ n: string }[]>`select count(*) as n from charges c
            where not exists (select 1 from charge_attempts a where a.charge_id = c.id)`
        : await h.sql<{ n: string }[]>`select count(*) as n from charge_attempts where status = ${query}`;
  return Number(row?.n ?? 0);
}

/** Payments sent (attempts claimed) after the breaker opened. */
async function sentAfterOpening(h: Harness): Promise<number> {
  const [row] = await h.sql<{ n: string }[]>`
    select count(*) as n from charge_attempts
    where created_at > (select opened_at from gateway_breaker where id = 1)`;
  return Number(row?.n ?? 0);
}

/** Every payment the gateway took is paid in the database or held, open, for reconciliation. */
async function everyCollectionAccounted(h: Harness): Promise<Check> {
  const taken = collections(await readLedgerPayments(h.sim.url)).filter((p) => !p.refunded);
  const orderIds = taken.map((p) => p.order_id ?? "");
  const rows = await h.sql<{ status: string; n: string }[]>`
    select a.status::text as status, count(*) as n from charge_attempts a
    where a.order_id = any(${orderIds}::text[]) group by 1`;
  const by = Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  const accounted = (by.approved ?? 0) + (by.unknown ?? 0);
  return {
    name: "every collection paid or held for reconciliation",
    ok: accounted === taken.length,
    detail: `${taken.length} taken: ${by.approved ?? 0} paid, ${by.unknown ?? 0} held unknown, ${taken.length - accounted} otherwise`,
  };
}

export const statusCheckBroken: Scenario = {
  name: "status-check-broken",
  title: `every CheckStatus reply malformed, ${DROPPED * 100}% of GetnewPayment replies dropped: the breaker opens, then CheckStatus recovers`,
  deadlineMs: 200_000,
  async run(run) {
    const { h } = run;
    await h.simPost("/_sim/faults", { operation: "CheckStatus", kind: "malformed" });
    await h.simPost("/_sim/faults", {
      operation: "GetnewPayment",
      kind: "apply_then_drop",
      probability: DROPPED,
    });
    const started = performance.now();
    await h.seed(run.n);
    await waitFor("the breaker to open", run.deadline, async () => (await breakerState(h.sql)).open);
    const opened = await breakerState(h.sql);
    // Long enough for each held attempt to have been asked more often than RECONCILE_MAX_TRIES,
    // which used to send it to review.
    const asks = (h.ctx.config.RECONCILE_MAX_TRIES + 1) * CALLS_PER_CHECK;
    await waitFor("the held attempts to be asked again and again", run.deadline, async () => {
      const unknown = await count(h, "unknown");
      return (await count(h, "in_flight")) === 0 && (await checkStatusHits(h)) >= asks * Math.max(1, unknown);
    });
    const held = await count(h, "unknown");
    const unsent = await count(h, "unsent");
    const checks: Check[] = [
      {
        name: "breaker opened on failed status checks",
        ok: opened.signal === "status_check_failed",
        detail: `${opened.signal}: ${opened.reason}`,
      },
      { ...(await everyCollectionAccounted(h)), name: "while broken: every collection paid or held" },
      {
        name: "while broken: nothing sent to review",
        ok: (await count(h, "review")) === 0,
        detail: `${await count(h, "review")} charges in review, ${held} attempts held unknown`,
      },
    ];
    run.notes.push(
      `while CheckStatus was broken: ${await h.paidCount()} paid, ${held} attempts held, ${unsent} charges not sent yet, ${await sentAfterOpening(h)} payments sent after the breaker opened, ${await checkStatusHits(h)} CheckStatus calls answered malformed`,
    );

    await fetch(`${h.sim.url}/_sim/faults`, { method: "DELETE" });
    const recovered = performance.now();
    const settledAt = await settle(h, run.deadline);
    const state = await breakerState(h.sql);
    run.notes.push(
      `CheckStatus fixed, breaker left open: ${await h.paidCount()} paid after reconciliation in ${((settledAt - recovered) / 1000).toFixed(1)} s; ${await count(h, "unsent")} charges wait, due, for a resume`,
    );
    return {
      settleMs: settledAt - started,
      checks: [
        ...checks,
        {
          name: "breaker still open",
          ok: state.open && state.openedAt?.toMillis() === opened.openedAt?.toMillis(),
          detail: state.open ? `${state.signal}` : "closed",
        },
        await everyCollectionAccounted(h),
        {
          name: "every held attempt reconciled",
          ok: (await count(h, "unknown")) === 0 && held > 0,
          detail: `${held} held while broken, ${await count(h, "unknown")} left`,
        },
      ],
    };
  },
};
