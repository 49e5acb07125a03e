/**
 * A gateway that takes the payment but answers a bare `{"result": 0}`, without the transactionid
 * and description its text promises for a decline (the simulator's bare_decline_applied fault), on
 * a share of GetnewPayment calls for the whole run, retries included. Trusted as a
 * decline, such a reply had the next attempt charge the card again (20 of 100 periods charged
 * twice, none refunded). Each one must be an unknown outcome settled by CheckStatus instead: every
 * period paid once, the database equal to the ledger (net of refunds, which the runner checks with
 * the double charges), and no decline stored without the gateway's transaction id. Once settled,
 * any retrying charge is brought due, as the dunning schedule would a day later, and the run
 * settles again: that is when a trusted bare decline charged a second time.
 */
import type { Harness } from "./harness.js";
import { allPaid, type Check, type Scenario, settleWithBreakerClosed } from "./scenario.js";

const SHARE = 0.2;
/** The gateway client's words for a result 0 without them (src/gateway/errors/factory.ts). */
const BARE_REPLY = "result 0 without the transactionid and description%";

async function bareDeclines(h: Harness): Promise<number> {
  const reply = await fetch(`${h.sim.url}/_sim/faults`);
  const { faults } = (await reply.json()) as { faults: { kind: string; hits: number }[] };
  return faults.filter((f) => f.kind === "bare_decline_applied").reduce((sum, f) => sum + f.hits, 0);
}

async function count(h: Harness, query: "reconciled" | "unproven"): Promise<number> {
  const [row] =
    query === "reconciled"
      ? // Each bare reply marked its attempt unknown, to be settled by CheckStatus.
        await h.sql<{ n: string }[]>`
          select count(distinct data->>'order_id') as n from events
          where type = 'charge.attempt_unknown' and data->>'why' like ${BARE_REPLY}`
      : await h.sql<{ n: string }[]>`
          select count(*) as n from charge_attempts
          where status = 'declined' and gateway_transaction_id is null`;
  return Number(row?.n ?? 0);
}

export const bareDecline: Scenario = {
  name: "bare-decline",
  title: `${SHARE * 100}% of GetnewPayments applied but answered a bare {"result": 0}`,
  deadlineMs: 120_000,
  async run(run) {
    const { h } = run;
    await h.simPost("/_sim/faults", {
      operation: "GetnewPayment",
      kind: "bare_decline_applied",
      probability: SHARE,
    });
    const started = performance.now();
    await h.seed(run.n);
    await settleWithBreakerClosed(run, started);
    // The dunning retries come due (a day later in a real run): a period wrongly believed declined
    // would be charged again now. With every bare reply reconciled, none is waiting.
    const retrying = await h.sql`
      update charges set next_attempt_at = now() where status = 'retrying' returning id`;
    run.notes.push(`${retrying.length} retrying charges brought due`);
    const { settleMs, breakerCheck } = await settleWithBreakerClosed(run, started);
    const hits = await bareDeclines(h);
    const reconciled = await count(h, "reconciled");
    const unproven = await count(h, "unproven");
    run.notes.push(`bare declines answered: ${hits}; attempts reconciled for one: ${reconciled}`);
    const checks: Check[] = [
      allPaid(await h.paidCount(), h.due),
      breakerCheck,
      {
        // A reply that arrived after the client's timeout is reconciled as a timeout instead.
        name: "bare declines met and reconciled",
        ok: hits > 0 && reconciled > 0 && reconciled <= hits,
        detail: `${reconciled} of ${hits} bare replies settled by CheckStatus`,
      },
      {
        name: "no decline without a transaction id",
        ok: unproven === 0,
        detail: `${unproven} declined attempts name no gateway payment`,
      },
    ];
    return { settleMs, checks };
  },
};
