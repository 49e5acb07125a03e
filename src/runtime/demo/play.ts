import { tmpdir } from "node:os";
import path from "node:path";
import type { DateTime } from "luxon";
import { createCoupon } from "../../coupons/index.js";
import { createPlan } from "../../plans/index.js";
import { table } from "../../text/index.js";
import type { DemoEngine } from "./engine.js";
import { readMailbox } from "./mailbox.js";
import {
  API_CALLS_PRICE,
  API_PLAN,
  enrollMetered,
  LATE_CALLS,
  meteredMoments,
  SEATS,
  SEATS_MEMBER,
  SEATS_PLAN,
  USAGE_MEMBER,
} from "./metered.js";
import { CAST, type Enrolled, enrollCast, moments, WELCOME_COUPON } from "./scenario.js";
import { type DemoSummary, summarise } from "./summary.js";

/**
 * The demo itself (`npm run demo`, scripts/demo.ts), on an engine the caller started and stops:
 * the plans and the coupon, the cast enrolled (seven cards saved through the hosted checkout, one
 * Qatar debit card paying by link, then a team paying per seat and an app paying for its API calls,
 * metered.ts), the billing clock moved through `months` months with what people do between billing
 * runs, and the summary. `say` hears every line printed.
 */

export const DEMO_START = "2026-01-05T06:00:00Z";
export const DEMO_MONTHS = 3;

export interface DemoRun {
  cast: Enrolled[];
  summary: DemoSummary;
}

const day = (at: DateTime) => at.setZone("Asia/Qatar").toFormat("ccc dd LLL yyyy HH:mm");

export async function playDemo(
  demo: DemoEngine,
  say: (text: string) => void,
  months = DEMO_MONTHS,
): Promise<DemoRun> {
  const { simulator, time } = demo;
  const { ctx } = demo.engine;

  // Autosave plans: their card tokens are charged any amount, which upgrades and coupons need.
  const plan = await createPlan(
    ctx,
    { name: "Pro", amount: "99.00", currency: "QAR", interval: "month", billing_mode: "autosave" },
    { actor: "demo" },
  );
  const plus = await createPlan(
    ctx,
    { name: "Pro Plus", amount: "149.00", currency: "QAR", interval: "month", billing_mode: "autosave" },
    { actor: "demo" },
  );
  await createCoupon(ctx, WELCOME_COUPON, { actor: "demo" });
  const byLink = CAST.filter((member) => member.byLink).map((member) => member.name);
  const [free, paid] = API_CALLS_PRICE.tiers;
  say(
    `plans Pro (99.00 QAR a month), Pro Plus (149.00), ${SEATS_PLAN.name} (${SEATS_PLAN.amount} a seat) and ` +
      `${API_PLAN.name} (${API_PLAN.amount}, the first\n${free.up_to.toLocaleString("en")} API calls free, then ` +
      `${paid.unit_amount} a call); coupon ${WELCOME_COUPON.code} (20% off two months).\n` +
      `Enrolling ${CAST.length - byLink.length} customers on Pro, ${SEATS_MEMBER.name} on ${SEATS_PLAN.name} at ` +
      `${SEATS_MEMBER.quantity} seats and ${USAGE_MEMBER.name} on ${API_PLAN.name} through the hosted\n` +
      `checkout; subscribing ${byLink.join(", ")} by payment link…`,
  );
  const cast = [...(await enrollCast(ctx, simulator, plan.id)), ...(await enrollMetered(ctx, simulator))];
  const start = time.now();
  const end = start.plus({ months }).minus({ days: 1 });

  say(`\nbilling from ${day(start)} to ${day(end)} (Asia/Qatar):`);
  say(`  ${day(start)}  billing run: the first period of every subscription`);
  await time.settle();
  const scripted = [
    ...moments(ctx, simulator, cast, start, plus.id, months),
    ...meteredMoments(ctx, cast, start),
  ];
  await time.play(end, scripted, (at, what) => say(`  ${day(at)}  ${what ?? "billing run"}`));

  const summary = await summarise(ctx, cast);
  say(`\n${table(summary.rows, summary.columns)}\n`);
  const { totals } = summary;
  say(`charged on time:       ${totals.onTime} charge(s)`);
  say(`paid by link:          ${totals.byLink.length} charge(s) (${totals.byLink.join(", ") || "none"})`);
  say(`recovered by dunning:  ${totals.recovered.length} (${totals.recovered.join("; ") || "none"})`);
  say(
    `invoiced:              ${totals.invoiced} charge(s) whose dunning ended; the gateway invoice was sent`,
  );
  say(
    `canceled:              ${totals.canceled.length} subscription(s) (${totals.canceled.join(", ") || "none"})`,
  );
  say(`plan changes:          ${totals.changes.join("; ") || "none"}`);
  say(`discounted periods:    ${totals.discounted.join("; ") || "none"}`);
  const indent = `\n${" ".repeat(23)}`;
  say(`seats:                 ${totals.seats.join(indent) || "none"}`);
  say(`usage:                 ${totals.usage.join(indent) || "none"}`);
  say(
    `\nCarla's card answers "Do not honour" twice, a decline dunning retries: the retry on day 3 paid.\n` +
      "Insufficient funds is retried on DUNNING_RETRY_DAYS (1,3,5,7) until it is invoiced; Dana's new\n" +
      "card resumed her collection after one more declined retry. Aisha's upgrade on day 10 charged\n" +
      "Pro Plus's price for the rest of the month less Pro's (each rounded half up); Omar's portal\n" +
      "cancellation kept the month he paid for; Farah's coupon took 20% off her first two months.\n" +
      "Hessa's Qatar debit card cannot pay recurring payments, so she subscribed by payment link: each\n" +
      "month's charge waited for her as a link, which she opened and paid through the hosted checkout\n" +
      "(one-time payments take a debit card); CheckStatus confirmed each payment on her return.\n" +
      `Nadia's team went from ${SEATS.from} seats to ${SEATS.to} on day 10 of February, with 18 of the period's 28 days\n` +
      `left: ${SEATS.to} seats' price for them less ${SEATS.from} seats' (each rounded half up) was charged at once, and\n` +
      `March billed ${SEATS.to} seats. Khalid's calls were charged a day after each period ended\n` +
      `(USAGE_GRACE_HOURS), so the ${LATE_CALLS} calls his app sent late still counted for January; March's\n` +
      "usage is charged once its period closes.",
  );
  const mailbox = await readMailbox(ctx, cast, path.join(tmpdir(), "billing-demo-receipts"));
  say(`\nmessages to customers: ${mailbox.byKind}`);
  say(
    `                       ${mailbox.byStatus} (no SMTP_URL: rendered and kept; /ops/messages and ` +
      "`billing messages list` show them)",
  );
  say("first receipts, as PDF in each customer's language (Omar and Hessa read Arabic):");
  for (const line of mailbox.receipts) say(`  ${line}`);
  return { cast, summary };
}
