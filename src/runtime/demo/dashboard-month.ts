import type { DateTime } from "luxon";
import { cancelSubscription } from "../../cancellation/index.js";
import { importSubscriptions, type ReadRow } from "../../imports/index.js";
import { createPlan } from "../../plans/index.js";
import type { DemoEngine } from "./engine.js";
import { CARDS, type CastMember, type Enrolled, enrollCast } from "./scenario.js";
import type { Moment } from "./time-machine.js";

/**
 * A busy month for the ops dashboard's screenshot (scripts/screenshot.ts), with something in every
 * chart and table, the same cast and days on every run (a seeded shuffle):
 * - veterans joined two months before the month shown, so cards that approve twice and then
 *   decline reach their failing third collection inside it;
 * - the crowd joins over the month, a few a day, with cards that approve, decline twice and then
 *   approve (recovered by dunning), or always decline (invoiced, or still retrying at the end);
 *   two of them cancel;
 * - at the end one charge is held for review (its GetnewPayment reply lost while CheckStatus
 *   fails), and subscriptions moving from another billing system bring cards that expire soon.
 */

const PLAN = { name: "Pro", amount: "99.00", currency: "QAR", interval: "month" } as const;
const VETERANS = { [CARDS.approves]: 4, [CARDS.approvesTwiceThenDeclines]: 4 };
const CROWD = { [CARDS.approves]: 26, [CARDS.declinesTwice]: 8, [CARDS.alwaysDeclines]: 6 };
/** The crowd joins on days FIRST_DAY … FIRST_DAY + DAYS - 1 after the veterans; the month ends at END_DAY. */
const FIRST_DAY = 40;
const DAYS = 28;
const END_DAY = 69;
const CANCELS = 2;
const CANCEL_AFTER_DAYS = 12;
const MOVING_IN = ["4111111111111111", "5555555555554444", "4111111111111111"];

const STORIES: Record<string, string> = {
  [CARDS.approves]: "approves",
  [CARDS.declinesTwice]: "declines twice",
  [CARDS.alwaysDeclines]: "always declines",
  [CARDS.approvesTwiceThenDeclines]: "fails from month 3",
};

const NAMES = [
  ..."Aisha Badr Carla Dana Eve Fahad Ghada Hamad Imran Jana Khalid".split(" "),
  ..."Layla Mariam Nasser Omar Priya Rashid Sara Tariq Yousef Zainab".split(" "),
];
const SURNAMES = "Al-Thani Haddad Khan Mansour Nair Santos Al-Kuwari Rahman Silva".split(" ");

/** mulberry32: a small seeded generator, so the month is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Customer number `n`, with `card`. */
function person(n: number, card: string): CastMember {
  const name = `${NAMES[n % NAMES.length]} ${SURNAMES[(n * 7) % SURNAMES.length]}`;
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, ".")}.${n}@example.qa`;
  return { name, email, card, story: STORIES[card] ?? card };
}

/** Customers numbered from `first`, one per card in `mix`, in a shuffled order. */
function people(mix: Record<string, number>, first: number, random: () => number): CastMember[] {
  const cards = Object.entries(mix).flatMap(([card, n]) => Array.from({ length: n }, () => card));
  return shuffled(cards, random).map((card, i) => person(first + i, card));
}

/** Where the billing clock starts so that the month ends at `end`. */
export function dashboardMonthStart(end: DateTime): DateTime {
  return end.minus({ days: END_DAY });
}

export interface DashboardMonth {
  customers: number;
  heldChargeId: string;
}

async function simulatorPost<T>(demo: DemoEngine, path: string, body: unknown): Promise<T> {
  const reply = await fetch(`${demo.simulator.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!reply.ok) throw new Error(`the simulator answered ${reply.status} to ${path}: ${await reply.text()}`);
  return (await reply.json()) as T;
}

async function clearFaults(demo: DemoEngine): Promise<void> {
  const reply = await fetch(`${demo.simulator.url}/_sim/faults`, { method: "DELETE" });
  if (!reply.ok) throw new Error(`the simulator answered ${reply.status} to clearing its faults`);
}

/**
 * One more customer whose first charge meets a GetnewPayment applied but its reply dropped, and a
 * CheckStatus that keeps failing: after RECONCILE_MAX_TRIES the charge waits for an operator.
 * Nothing else is due at that instant, so no other charge meets the faults.
 */
async function holdOneCharge(demo: DemoEngine, planId: string, member: CastMember): Promise<string> {
  const { ctx } = demo.engine;
  const [held] = await enrollCast(ctx, demo.simulator, planId, [member]);
  await simulatorPost(demo, "/_sim/faults", {
    operation: "GetnewPayment",
    kind: "apply_then_drop",
    times: 1,
  });
  await simulatorPost(demo, "/_sim/faults", { operation: "CheckStatus", kind: "error5xx" });
  try {
    await demo.time.settle();
  } finally {
    await clearFaults(demo);
  }
  const [row] = await ctx.db.$client<{ id: string; status: string }[]>`
    select id, status from charges where subscription_id = ${held?.subscriptionId ?? null}`;
  if (row?.status !== "needs_review") {
    throw new Error(`the charge meant to be held for review is ${row?.status ?? "missing"}`);
  }
  return row.id;
}

/**
 * Subscriptions moving in from another billing system with gateway tokens (minted by the
 * simulator) issued five and a half months ago or so: a token lives six months, so theirs stop
 * working within weeks.
 */
async function moveIn(demo: DemoEngine, planId: string, members: CastMember[]): Promise<void> {
  const now = demo.time.now();
  const issuedAgo = now.minus({ months: 6 }).plus({ days: 9 });
  const rows: ReadRow[] = [];
  for (const [i, member] of members.entries()) {
    const { tokens } = await simulatorPost<{ tokens: { card_token: string }[] }>(demo, "/_sim/tokens", {
      count: 1,
      card_number: member.card,
      amount: PLAN.amount,
      currency: PLAN.currency,
      customer_email: member.email,
    });
    rows.push({
      line: i + 2,
      error: null,
      row: {
        email: member.email,
        name: member.name,
        plan: planId,
        card_token: tokens[0]?.card_token ?? "",
        card_last4: member.card.slice(-4),
        token_issued_at: issuedAgo.plus({ days: 6 * i }).toISO() ?? undefined,
        next_billing_at: now.plus({ days: 2 + 2 * i }).toISO() ?? undefined,
      },
    });
  }
  const report = await importSubscriptions(demo.engine.ctx, rows, { actor: "demo" });
  if (report.imported !== members.length) {
    throw new Error(
      `the import took ${report.imported} of ${members.length}: ${JSON.stringify(report.rows)}`,
    );
  }
}

export async function dashboardMonth(demo: DemoEngine): Promise<DashboardMonth> {
  const { ctx } = demo.engine;
  const { simulator, time } = demo;
  const random = seeded(2026);
  const plan = await createPlan(ctx, PLAN, { actor: "demo" });
  const veterans = people(VETERANS, 0, random);
  const crowd = people(CROWD, veterans.length, random);
  const last = veterans.length + crowd.length;
  const held = person(last, CARDS.approves);
  const movingIn = MOVING_IN.map((card, i) => person(last + 1 + i, card));

  const start = time.now();
  await enrollCast(ctx, simulator, plan.id, veterans);
  await time.settle();

  const joined = new Map<string, Enrolled>();
  const joins = crowd.map((member) => ({
    member,
    at: start.plus({ days: FIRST_DAY + Math.floor(random() * DAYS), hours: Math.floor(random() * 11) }),
  }));
  const moments: Moment[] = joins.map(({ member, at }) => ({
    at,
    what: `${member.name} joins`,
    run: async () => {
      const [enrolled] = await enrollCast(ctx, simulator, plan.id, [member]);
      if (enrolled) joined.set(member.email, enrolled);
    },
  }));
  const leavers = joins
    .filter(({ member, at }) => member.card === CARDS.approves && at < start.plus({ days: END_DAY - 14 }))
    .slice(0, CANCELS);
  for (const { member, at } of leavers) {
    moments.push({
      at: at.plus({ days: CANCEL_AFTER_DAYS }),
      what: `${member.name} cancels`,
      run: async () => {
        const enrolled = joined.get(member.email);
        if (!enrolled) throw new Error(`${member.name} cancels before joining`);
        await cancelSubscription(ctx, {
          subscriptionId: enrolled.subscriptionId,
          actor: "customer",
          mode: "immediately",
        });
      },
    });
  }
  const end = start.plus({ days: END_DAY });
  await time.play(end, moments);
  await time.moveTo(end);

  const heldChargeId = await holdOneCharge(demo, plan.id, held);
  await moveIn(demo, plan.id, movingIn);
  return { customers: last + 1 + movingIn.length, heldChargeId };
}
