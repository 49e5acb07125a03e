/**
 * `npm run demo`: the engine on the zero-config setup, in this process, with its own embedded
 * PostgreSQL in a temporary directory (a user's .data is never touched) and the simulator
 * in-process; of the caller's environment only the port settings are taken (PORT, HOST,
 * GATEWAY_SIM_PORT, EMBEDDED_POSTGRES_PORT; each unset is a free port: src/runtime/demo/ports.ts).
 * Nine customers save simulated cards through the hosted checkout (one of them a team paying per
 * seat, one an app paying for its API calls) and one, whose Qatar debit card cannot pay recurring
 * payments, subscribes by payment link; the billing clock moves through three months (to
 * each instant the engine has work due, running the billing tick and waiting for the workers), the
 * link customer pays each month's link through the hosted checkout, the team grows from 3 seats to
 * 5, the app reports its calls, and a summary says what was charged on time, paid by link,
 * recovered by dunning, invoiced and canceled, per seat and for usage (src/runtime/demo/play.ts).
 * Everything is stopped at the end; the exit code is 0.
 */
import { exitWhenFlushed } from "../src/cli/exit.js";
import { type DemoEngine, startDemoEngine } from "../src/runtime/demo/engine.js";
import { DEMO_START, playDemo } from "../src/runtime/demo/play.js";

const say = (text: string) => process.stdout.write(`${text}\n`);

let demo: DemoEngine | undefined;
let failed = false;
try {
  say("starting the engine (embedded PostgreSQL, BullMQ on it, gateway simulator in-process)…");
  demo = await startDemoEngine({ name: "demo", start: DEMO_START });
  await playDemo(demo, say);
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
