/**
 * `npm run demo`: the engine on the zero-config setup, in this process, with its own embedded
 * PostgreSQL in a temporary directory (a user's .data is never touched) and the simulator
 * in-process. Six customers save simulated cards through the hosted checkout, the billing clock
 * moves through three months (to each instant the engine has work due, running the billing tick
 * and waiting for the workers), and a summary says what was charged on time, recovered by
 * dunning, invoiced and canceled. Everything is stopped at the end; the exit code is 0.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DateTime } from "luxon";
import { exitWhenFlushed } from "../src/cli/exit.js";
import { table } from "../src/cli/output.js";
import { createLogger } from "../src/logger/index.js";
import { createPlan } from "../src/plans/index.js";
import { CAST, enrollCast, moments } from "../src/runtime/demo/scenario.js";
import { summarise } from "../src/runtime/demo/summary.js";
import { TimeMachine } from "../src/runtime/demo/time-machine.js";
import { type EngineProcess, startEngineProcess } from "../src/runtime/index.js";

const START = "2026-01-05T06:00:00Z";
const MONTHS = 3;

const say = (text: string) => process.stdout.write(`${text}\n`);
const day = (at: DateTime) => at.setZone("Asia/Qatar").toFormat("ccc dd LLL yyyy HH:mm");

const dataDir = await mkdtemp(path.join(tmpdir(), "billing-demo-"));
// As root, the embedded PostgreSQL runs as the `postgres` user, which must reach the cluster inside.
await chmod(dataDir, 0o755);
let engine: EngineProcess | undefined;
let failed = false;
try {
  say("starting the engine (embedded PostgreSQL, BullMQ on it, gateway simulator in-process)…");
  engine = await startEngineProcess({
    // Zero-config on purpose: none of the caller's DATABASE_URL, REDIS_URL or gateway settings.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BILLING_DATA_DIR: dataDir,
      BILLING_CLOCK_START: START,
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      PORT: "0",
      HOST: "127.0.0.1",
      QUEUE_BACKOFF_MS: "200",
    },
    logger: createLogger({ level: process.env.LOG_LEVEL || "error", name: "demo" }),
    // The demo runs the billing tick itself, right after each move of the clock.
    parts: { http: true, scheduler: false, workers: true },
  });
  const { ctx, simulator } = engine;
  if (!simulator) throw new Error("the demo needs the in-process simulator");
  const time = new TimeMachine(ctx);

  const plan = await createPlan(
    ctx,
    { name: "Pro", amount: "99.00", currency: "QAR", interval: "month" },
    { actor: "demo" },
  );
  say(`plan Pro: 99.00 QAR a month. Enrolling ${CAST.length} customers through the hosted checkout…`);
  const cast = await enrollCast(ctx, simulator, plan.id);
  const start = time.now();
  const end = start.plus({ months: MONTHS }).minus({ days: 1 });
  const pending = moments(ctx, simulator, cast, start);

  say(`\nbilling from ${day(start)} to ${day(end)} (Asia/Qatar):`);
  say(`  ${day(start)}  billing run: the first period of every subscription`);
  await time.settle();
  for (;;) {
    const due = await time.nextDue();
    const moment = pending[0];
    const next = [due, moment?.at]
      .filter((at) => at !== undefined)
      .sort((a, b) => a.toMillis() - b.toMillis())[0];
    if (!next || next > end) break;
    await time.moveTo(next);
    if (moment && moment.at <= next) {
      pending.shift();
      say(`  ${day(next)}  ${moment.what}`);
      await moment.run();
    } else {
      say(`  ${day(next)}  billing run`);
    }
    await time.settle();
  }

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
  say(
    `\nCarla's card answers "Do not honour" twice, a decline dunning retries: the retry on day 3 paid.\n` +
      "Insufficient funds is retried on DUNNING_RETRY_DAYS (1,3,5,7) until it is invoiced; Dana's new\n" +
      "card resumed her collection after one more declined retry.",
  );
} catch (error) {
  failed = true;
  process.stderr.write(
    `demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
} finally {
  await engine
    ?.close()
    .catch((error: unknown) => process.stderr.write(`stopping the engine failed: ${error}\n`));
  await rm(dataDir, { recursive: true, force: true });
}
await exitWhenFlushed(failed ? 1 : 0);
