/**
 * `npm run demo`: the engine on the zero-config setup, in this process, with its own embedded
 * PostgreSQL in a temporary directory (a user's .data is never touched) and the simulator
 * in-process. Seven customers save simulated cards through the hosted checkout, the billing clock
 * moves through three months (to each instant the engine has work due, running the billing tick
 * and waiting for the workers), and a summary says what was charged on time, recovered by
 * dunning, invoiced and canceled. Everything is stopped at the end; the exit code is 0.
 */
import type { DateTime } from "luxon";
import { exitWhenFlushed } from "../src/cli/exit.js";
import { table } from "../src/cli/output.js";
import { createCoupon } from "../src/coupons/index.js";
import { createPlan } from "../src/plans/index.js";
import { type DemoEngine, startDemoEngine } from "../src/runtime/demo/engine.js";
import { CAST, enrollCast, moments, WELCOME_COUPON } from "../src/runtime/demo/scenario.js";
import { summarise } from "../src/runtime/demo/summary.js";

const START = "2026-01-05T06:00:00Z";
const MONTHS = 3;

const say = (text: string) => process.stdout.write(`${text}\n`);
const day = (at: DateTime) => at.setZone("Asia/Qatar").toFormat("ccc dd LLL yyyy HH:mm");

let demo: DemoEngine | undefined;
let failed = false;
try {
  say("starting the engine (embedded PostgreSQL, BullMQ on it, gateway simulator in-process)…");
  demo = await startDemoEngine({ name: "demo", start: START });
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
  say(
    `plans Pro (99.00 QAR a month) and Pro Plus (149.00); coupon ${WELCOME_COUPON.code} (20% off two months).\n` +
      `Enrolling ${CAST.length} customers through the hosted checkout…`,
  );
  const cast = await enrollCast(ctx, simulator, plan.id);
  const start = time.now();
  const end = start.plus({ months: MONTHS }).minus({ days: 1 });

  say(`\nbilling from ${day(start)} to ${day(end)} (Asia/Qatar):`);
  say(`  ${day(start)}  billing run: the first period of every subscription`);
  await time.settle();
  await time.play(end, moments(ctx, simulator, cast, start, plus.id), (at, what) =>
    say(`  ${day(at)}  ${what ?? "billing run"}`),
  );

  const summary = await summarise(ctx, cast);
  say(`\n${table(summary.rows, summary.columns)}\n`);
  const { totals } = summary;
  say(`charged on time:       ${totals.onTime} charge(s)`);
  say(`recovered by dunning:  ${totals.recovered.length} (${totals.recovered.join("; ") || "none"})`);
  say(
    `invoiced:              ${totals.invoiced} charge(s) whose dunning ended; the gateway invoice was sent`,
  );
  say(
    `canceled:              ${totals.canceled.length} subscription(s) (${totals.canceled.join(", ") || "none"})`,
  );
  say(`plan changes:          ${totals.changes.join("; ") || "none"}`);
  say(`discounted periods:    ${totals.discounted.join("; ") || "none"}`);
  say(
    `\nCarla's card answers "Do not honour" twice, a decline dunning retries: the retry on day 3 paid.\n` +
      "Insufficient funds is retried on DUNNING_RETRY_DAYS (1,3,5,7) until it is invoiced; Dana's new\n" +
      "card resumed her collection after one more declined retry. Aisha's upgrade on day 10 charged\n" +
      "Pro Plus's price for the rest of the month less Pro's (each rounded half up); Omar's portal\n" +
      "cancellation kept the month he paid for; Farah's coupon took 20% off her first two months.",
  );
} catch (error) {
  failed = true;
  process.stderr.write(
    `demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
} finally {
  await demo
    ?.close()
    .catch((error: unknown) => process.stderr.write(`stopping the engine failed: ${error}\n`));
}
await exitWhenFlushed(failed ? 1 : 0);
