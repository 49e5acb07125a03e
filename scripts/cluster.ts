/**
 * Multi-host test (`npm run cluster`, root on Linux): the engine on three hosts of its own, each a
 * network namespace joined to the others by a bridge (scripts/cluster/network.ts), PostgreSQL and
 * Redis on a fourth, the gateway simulator on a fifth. The scheduler (billing tick) runs on e1 and
 * a charge worker on each of e2 and e3; this process seeds and watches from the root namespace.
 *
 * A month of CLUSTER_SUBSCRIPTIONS subscriptions falls due at once. The simulator's merchant is
 * limited to CLUSTER_RATE calls in any one second (429 past it) and every engine process shares
 * GATEWAY_RATE_PER_SECOND = CLUSTER_RATE through Redis on the db host. Once a third of the charges
 * are paid, e2 is cut off from the network while it is charging (every GetnewPayment takes
 * CLUSTER_LATENCY_MS at the simulator, so it usually has calls in flight). It stays cut until e3
 * has paid every due subscription (the jobs e2 held come back to the queue when their locks lapse;
 * the attempts it had open are settled by CheckStatus once they are past the quiet period), at
 * most CLUSTER_CUT_MAX_SECONDS. Then (CLUSTER_AFTER_CUT):
 * - heal (default): e2's network comes back with its worker still running, as a partition heals:
 *   whatever e2 still held (replies it waited for, commits in flight, requests its kernel was
 *   still retransmitting) arrives late; the run waits until e2's kernel has nothing left queued
 *   toward the other hosts, then for the engine to settle. The harder case: a host that died
 *   cannot act on stale state, one that comes back can;
 * - kill: e2's worker is SIGKILLed and e2 stays cut until the end, as a machine that died.
 *
 * Then the checks: exactly once against the simulator's ledger (scripts/bench/exactly-once.ts: one
 * collection per subscription, distinct order ids, N paid over N subscriptions, ledger total =
 * database total, receipts 1..N, late duplicates refunded), the gateway's rate never passed
 * (scripts/bench/gateway-rate.ts: the simulator's max_in_window ≤ R and nothing refused, over the
 * whole run, the reconciliation and whatever e2 sent late included), and e3 having paid every due
 * subscription while e2 was still cut. Exit status 1 when a check fails (the processes' logs are
 * then kept and their directory printed); 0 with "skipped" where the hosts cannot be made (not
 * root, no iproute2 or no namespaces, no PostgreSQL or Redis binaries). Everything the run made
 * (processes, namespaces, bridge, data directory) is removed at its end, on failure and on
 * SIGINT/SIGTERM; one run at a time (a lock file), and a run removes what a killed one left.
 *
 *   CLUSTER_SUBSCRIPTIONS    subscriptions, all due (default 10000)
 *   CLUSTER_RATE             the gateway's limit and the shared budget, calls/s (default 500)
 *   CLUSTER_RATE_WINDOW_MS   the budget's window, GATEWAY_RATE_WINDOW_MS (default: the engine's, 1100)
 *   CLUSTER_LATENCY_MS       added latency of every GetnewPayment at the simulator (default 200)
 *   CLUSTER_CUT_AT           share of the charges paid when e2 is cut (default 0.333)
 *   CLUSTER_CUT_MODE         drop (default: the bridge drops e2's packets both ways, links stay up) or
 *                            link (e2's own interface down); see scripts/cluster/network.ts
 *   CLUSTER_CUT_WHEN         any (default: the moment the share is reached) or in-transaction (then
 *                            as soon as one of e2's PostgreSQL sessions is inside a transaction)
 *   CLUSTER_CUT_MAX_SECONDS  longest cut (default 150)
 *   CLUSTER_AFTER_CUT        heal (default) or kill
 *   CLUSTER_DEADLINE_SECONDS the whole run's limit (default 900)
 *   CLUSTER_KEEP_LOGS        1: keep the processes' logs (they are kept anyway when a check fails)
 *   CLUSTER_PG_SETTINGS      PostgreSQL settings of the db host, space-separated name=value, or none
 *                            (default: keepalives and tcp_user_timeout, see DEAD_PEER_SETTINGS)
 *   CLUSTER_PG_BIN           PostgreSQL's bin directory (default the newest /usr/lib/postgresql/N/bin)
 */
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { exitWhenFlushed } from "../src/cli/exit.js";
import { loadConfig } from "../src/config/index.js";
import { createDb, migrateDatabase } from "../src/db/index.js";
import { withDatabase } from "../src/db/url.js";
import { createQueueSystem, QUEUE_NAMES } from "../src/queue/index.js";
import { type Check, exactlyOnce } from "./bench/exactly-once.js";
import { gatewayRate, limitGateway } from "./bench/gateway-rate.js";
import { hasExited, stopWorkerProcesses, waitForWorkers } from "./bench/processes.js";
import { runnerContext } from "./bench/runner-context.js";
import { seedSubscriptions } from "./bench/seed.js";
import { settledOn } from "./chaos/settle.js";
import { type EngineProcess, engineEnv, startEngineProcess } from "./cluster/engine.js";
import {
  type CutMode,
  createNetwork,
  cut,
  HOSTS,
  heal,
  missingPrerequisite,
  type QueuedSockets,
  queuedToward,
  removeNetwork,
  TEMP_PREFIX,
  takeLock,
} from "./cluster/network.js";
import { attemptSummary, logErrors, paidCount, sessionsOf, transactionOf } from "./cluster/observe.js";
import { postgresBin, startPostgres, startRedis, startSimulator } from "./cluster/services.js";

/**
 * How the db host's PostgreSQL learns that a client host is gone (a partition, a machine that
 * died) and ends its sessions, rolling back what they held open: an idle connection is probed after
 * 5 s, every 2 s, 3 times; data it sent that stays unacknowledged for 10 s drops the connection.
 * Without them, a session the cut host left inside a transaction keeps its row locks for as long as
 * the cut lasts (and, for a host that never comes back, until the kernel's keepalive, about 2 h 11
 * min by default), and charges whose rows it locked wait that long.
 */
const DEAD_PEER_SETTINGS =
  "tcp_keepalives_idle=5 tcp_keepalives_interval=2 tcp_keepalives_count=3 tcp_user_timeout=10000";

const env = z
  .object({
    CLUSTER_SUBSCRIPTIONS: z.coerce.number().int().min(30).max(200_000).default(10_000),
    CLUSTER_RATE: z.coerce.number().int().min(10).max(100_000).default(500),
    CLUSTER_RATE_WINDOW_MS: z.coerce.number().int().min(1_000).max(10_000).optional(),
    CLUSTER_LATENCY_MS: z.coerce.number().int().min(0).max(4_000).default(200),
    CLUSTER_CUT_AT: z.coerce.number().gt(0).lt(1).default(0.333),
    CLUSTER_CUT_MODE: z.enum(["drop", "link"]).default("drop"),
    CLUSTER_CUT_WHEN: z.enum(["any", "in-transaction"]).default("any"),
    CLUSTER_CUT_MAX_SECONDS: z.coerce.number().int().min(10).max(1_800).default(150),
    CLUSTER_AFTER_CUT: z.enum(["heal", "kill"]).default("heal"),
    CLUSTER_DEADLINE_SECONDS: z.coerce.number().int().min(60).max(7_200).default(900),
    CLUSTER_KEEP_LOGS: z.enum(["0", "1"]).default("0"),
    CLUSTER_PG_BIN: z.string().min(1).optional(),
    CLUSTER_PG_SETTINGS: z
      .string()
      .default(DEAD_PEER_SETTINGS)
      .transform((v) => (v === "none" ? [] : v.split(/\s+/).filter(Boolean)))
      .pipe(z.array(z.string().regex(/^[a-z_]+=[\w.]+$/, "expected name=value settings, or none"))),
  })
  .parse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== "")));

const POLL_MS = 250;
/** CLUSTER_CUT_WHEN=in-transaction: how long to look for one of e2's transactions before cutting anyway. */
const IN_TRANSACTION_WAIT_MS = 10_000;
const WORKERS_READY_MS = 120_000;
const STOP_KILL_MS = 20_000;
/** Longer than LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS (5 s): a late check due meanwhile has run. */
const STABLE_MS = 8_000;
/** Longest wait, after the cut heals, for e2's kernel to deliver or drop what it still holds. */
const DRAIN_MAX_MS = 150_000;

/** Whether the processes' logs outlive the run: asked for, or something failed. */
const keep = { logs: env.CLUSTER_KEEP_LOGS === "1" };
/** Set by SIGINT/SIGTERM: the run's own failure (its processes stopping under it) is not news then. */
const interrupted = { by: undefined as NodeJS.Signals | undefined };

const out = (text: string) => process.stdout.write(text);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Teardown steps, run last-in first-out, each on its own (one failing does not stop the rest). */
class Cleanup {
  private readonly steps: { what: string; run: () => Promise<unknown> | unknown }[] = [];
  private running: Promise<void> | undefined;
  add(what: string, run: () => Promise<unknown> | unknown): void {
    this.steps.push({ what, run });
  }
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          out(`  teardown: ${step.what} failed: ${error instanceof Error ? error.message : String(error)}\n`);
        }
      }
    })();
    return this.running;
  }
}

/** Programs the run needs besides `ip`; the first one missing, or null. */
function missingTool(mode: CutMode): string | null {
  if (!postgresBin(env.CLUSTER_PG_BIN))
    return "PostgreSQL's server programs were not found (set CLUSTER_PG_BIN to the directory holding pg_ctl)";
  for (const [tool, why] of [
    ["redis-server", "Redis"],
    ["runuser", "PostgreSQL runs as the postgres OS user"],
    ["ss", "what a cut host still holds is read with ss (iproute2)"],
    ...(mode === "drop" ? [["bridge", "CLUSTER_CUT_MODE=drop uses bridge (iproute2)"]] : []),
  ] as const) {
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0)
      return `${tool} is not installed (${why})`;
  }
  if (spawnSync("id", ["-u", "postgres"]).status !== 0)
    return "there is no `postgres` OS user to run PostgreSQL";
  return null;
}

interface Timeline {
  readonly phases: { name: string; ms: number }[];
  mark(name: string): void;
}

function timeline(): Timeline {
  let last = performance.now();
  const phases: { name: string; ms: number }[] = [];
  return {
    phases,
    mark(name) {
      const now = performance.now();
      phases.push({ name, ms: now - last });
      out(`  ${name.padEnd(44)} ${secs(now - last)}\n`);
      last = now;
    },
  };
}

function queuedLine(what: string, q: QueuedSockets): string {
  return q.sockets === 0
    ? `nothing queued toward ${what}`
    : `${q.sockets} socket(s) with ${q.bytes} bytes unacknowledged by ${what}${q.orphaned > 0 ? ` (${q.orphaned} of them closed by the process, still retransmitted by the kernel)` : ""}`;
}

async function run(cleanup: Cleanup): Promise<number> {
  const n = env.CLUSTER_SUBSCRIPTIONS;
  const rate = env.CLUSTER_RATE;
  const mode = env.CLUSTER_CUT_MODE;
  const deadline = performance.now() + env.CLUSTER_DEADLINE_SECONDS * 1000;
  const runStart = performance.now();
  const t = timeline();

  const left = await removeNetwork({ dataDirs: true });
  if (left.length > 0) out(`removed what an earlier run left: ${left.join(", ")}\n`);
  cleanup.add("remove the network", () => removeNetwork());
  await createNetwork();
  t.mark("network (5 namespaces, bridge bill0)");

  const runDir = mkdtempSync(join(tmpdir(), TEMP_PREFIX));
  chmodSync(runDir, 0o755);
  const logDir = join(runDir, "logs");
  mkdirSync(logDir, { mode: 0o755 });
  cleanup.add("remove the run's directory", () => {
    if (keep.logs) {
      const kept = mkdtempSync(join(tmpdir(), "cluster-logs-"));
      cpSync(logDir, kept, { recursive: true });
      out(`logs kept in ${kept}\n`);
    }
    rmSync(runDir, { recursive: true, force: true });
  });

  const pg = await startPostgres(
    HOSTS.db,
    postgresBin(env.CLUSTER_PG_BIN)!,
    runDir,
    logDir,
    env.CLUSTER_PG_SETTINGS,
  );
  cleanup.add("stop PostgreSQL", () => pg.stop());
  const redis = await startRedis(HOSTS.db, logDir, runDir);
  cleanup.add("stop Redis", () => redis.stop());
  t.mark(`PostgreSQL and Redis on db (${HOSTS.db.address})`);
  const sim = await startSimulator(HOSTS.sim, logDir, rate);
  cleanup.add("stop the simulator", () => sim.stop());
  t.mark(`simulator on sim (${HOSTS.sim.address})`);

  const databaseUrl = withDatabase(pg.url, "billing");
  await migrateDatabase(databaseUrl);
  t.mark("schema migrated");

  const engine = engineEnv({
    databaseUrl,
    redisUrl: redis.url,
    simUrl: sim.url,
    apiKey: sim.apiKey,
    rate,
    connectionGraceMs: (env.CLUSTER_CUT_MAX_SECONDS + 120) * 1000,
    ...(env.CLUSTER_RATE_WINDOW_MS === undefined ? {} : { rateWindowMs: env.CLUSTER_RATE_WINDOW_MS }),
  });
  const config = loadConfig(engine);
  const database = createDb(databaseUrl, { max: 10, applicationName: "cluster-runner" });
  const queues = createQueueSystem({ redisUrl: redis.url, prefix: config.QUEUE_PREFIX });
  cleanup.add("close this process's pools", async () => {
    await queues.close();
    await database.close();
  });
  const ctx = runnerContext({ config, db: database.db, queues, sim });
  const sql = database.sql;

  out(`seeding ${n} subscriptions, all due…\n`);
  await seedSubscriptions(ctx, sim.url, n, n);
  t.mark(`${n} subscriptions seeded`);
  await limitGateway(sim.url, sim.apiKey, rate);
  if (env.CLUSTER_LATENCY_MS > 0) {
    const reply = await fetch(`${sim.url}/_sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        operation: "GetnewPayment",
        kind: "latency",
        latency_ms: env.CLUSTER_LATENCY_MS,
      }),
    });
    if (!reply.ok) throw new Error(`POST /_sim/faults answered ${reply.status}`);
  }

  const processes: EngineProcess[] = [];
  cleanup.add("stop the engine processes", () => stopWorkerProcesses(processes, STOP_KILL_MS));
  const e2 = startEngineProcess(HOSTS.e2, "charge-worker-e2", "workers/charge-worker.ts", engine, logDir);
  const e3 = startEngineProcess(HOSTS.e3, "charge-worker-e3", "workers/charge-worker.ts", engine, logDir);
  processes.push(e2, e3);
  await waitForWorkers(queues.queue(QUEUE_NAMES.charges), 2, [e2, e3], WORKERS_READY_MS);
  t.mark("charge workers ready on e2 and e3");
  const scheduler = startEngineProcess(HOSTS.e1, "scheduler-e1", "workers/scheduler.ts", engine, logDir);
  processes.push(scheduler);
  const windowStart = performance.now();

  /** Throws when a process that must keep running has exited. */
  const watch = (...which: EngineProcess[]) => {
    const dead = which.find(hasExited);
    if (dead)
      throw new Error(
        `${dead.name} exited (code ${dead.child.exitCode}, signal ${dead.child.signalCode}); see ${dead.log}`,
      );
  };
  const poll = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

  // Charging, up to the cut.
  const cutAt = Math.ceil(n * env.CLUSTER_CUT_AT);
  let paid = 0;
  let firstPaidAt: number | undefined;
  while (paid < cutAt) {
    watch(scheduler, e2, e3);
    if (performance.now() > deadline) throw new Error(`only ${paid} of ${n} paid before the run's deadline`);
    await poll();
    paid = await paidCount(sql);
    if (paid > 0) firstPaidAt ??= performance.now();
  }
  const [atCut] = await sql<{ processing: string }[]>`
    select count(*) as processing from charges where status = 'processing'`;
  const caught =
    env.CLUSTER_CUT_WHEN === "in-transaction"
      ? await transactionOf(sql, HOSTS.e2.address, IN_TRANSACTION_WAIT_MS)
      : undefined;
  await cut(HOSTS.e2, mode);
  const cutStart = performance.now();
  const paidAtCut = await paidCount(sql);
  const e2SessionsAtCut = await sessionsOf(sql, HOSTS.e2.address);
  t.mark(`charging until ${paidAtCut} paid; e2 cut (${mode})`);

  // The cut: e3 alone, until everything due is paid or the cut's limit.
  const cutLimit = Math.min(deadline, cutStart + env.CLUSTER_CUT_MAX_SECONDS * 1000);
  let allPaidAt: number | undefined;
  while (performance.now() < cutLimit) {
    watch(scheduler, e3);
    paid = await paidCount(sql);
    if (paid >= n) {
      allPaidAt = performance.now();
      break;
    }
    await poll();
  }
  const paidByE3 = paid - paidAtCut;
  const e2AliveAtHeal = !hasExited(e2);
  const peers = {
    gateway: new URL(sim.url).host,
    postgres: new URL(pg.url).host,
    redis: new URL(redis.url).host,
  };
  const held = {
    gateway: await queuedToward(HOSTS.e2, peers.gateway),
    postgres: await queuedToward(HOSTS.e2, peers.postgres),
    redis: await queuedToward(HOSTS.e2, peers.redis),
  };
  const e2SessionsAtEnd = await sessionsOf(sql, HOSTS.e2.address);
  const cutMs = performance.now() - cutStart;
  t.mark(
    allPaidAt
      ? `cut: e3 paid the other ${paidByE3} (all due paid ${secs(allPaidAt - cutStart)} after the cut)`
      : `cut: e3 paid ${paidByE3}; ${n - paid} not paid at the cut's limit`,
  );

  let afterCut: string;
  let drainMs: number | undefined;
  if (env.CLUSTER_AFTER_CUT === "heal") {
    await heal(HOSTS.e2, mode);
    const healedAt = performance.now();
    // Whatever e2's kernel still held goes out now, at its next retransmission (within about as
    // long again as the cut lasted); wait until nothing is queued any more, then for the engine.
    const drainLimit = Math.min(deadline, healedAt + Math.min(DRAIN_MAX_MS, cutMs + 10_000));
    for (;;) {
      const [g, p, r] = await Promise.all([
        queuedToward(HOSTS.e2, peers.gateway),
        queuedToward(HOSTS.e2, peers.postgres),
        queuedToward(HOSTS.e2, peers.redis),
      ]);
      if (g.sockets + p.sockets + r.sockets === 0) {
        drainMs = performance.now() - healedAt;
        break;
      }
      if (performance.now() > drainLimit) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    afterCut =
      drainMs === undefined
        ? `healed; e2's kernel still held data ${secs(performance.now() - healedAt)} later`
        : `healed; nothing left in e2's kernel ${secs(drainMs)} after (delivered, or refused by a peer that had dropped the connection)`;
    t.mark(`e2 back on the network (${drainMs === undefined ? "still draining" : "drained"})`);
  } else {
    e2.child.kill("SIGKILL");
    await e2.exited;
    afterCut = "e2's worker SIGKILLed while cut; e2 left cut (a machine that died)";
    t.mark("e2's worker killed");
  }

  watch(scheduler, e3);
  const settledAt = await settledOn(sql, deadline, { stableMs: STABLE_MS });
  t.mark(`settled (nothing changed for ${STABLE_MS / 1000} s)`);
  const e2Running = !hasExited(e2);
  const exits = await stopWorkerProcesses(processes, STOP_KILL_MS);
  t.mark("engine processes stopped (SIGTERM)");

  const windowSeconds = (settledAt - windowStart) / 1000;
  const budget = await gatewayRate(sim.url, sim.apiKey, rate, windowSeconds);
  const checks: Check[] = [
    ...(await exactlyOnce(sim.url, sql, n)),
    ...budget.checks,
    {
      name: "e3 paid every due subscription while e2 was cut",
      ok: allPaidAt !== undefined,
      detail: allPaidAt
        ? `${paidByE3} paid by e3 in ${secs(allPaidAt - cutStart)} after the cut at ${paidAtCut}`
        : `${paid} of ${n} paid when the cut ended after ${secs(cutMs)}`,
    },
  ];
  const attempts = await attemptSummary(sql);
  t.mark("checks read");

  const processLines = processes.map((p, i) => {
    const errors = logErrors(p.log);
    const exit = exits[i]!;
    return `  ${p.name.padEnd(18)} on ${p.host.ns} ${p.host.address.padEnd(11)} exit ${exit.code ?? exit.signal}; ${errors.count} error lines${errors.first ? ` (first: ${errors.first})` : ""}`;
  });
  const total = performance.now() - runStart;
  const lines = [
    "",
    "cluster summary",
    `  subscriptions:       ${n}, all due; gateway limited to ${rate} calls/s, the same budget shared by every engine process through Redis (GATEWAY_RATE_PER_SECOND, window ${config.GATEWAY_RATE_WINDOW_MS} ms); GetnewPayment +${env.CLUSTER_LATENCY_MS} ms`,
    `  hosts:               db ${HOSTS.db.address} (PostgreSQL, Redis), sim ${HOSTS.sim.address} (simulator), e1 ${HOSTS.e1.address} (scheduler), e2 ${HOSTS.e2.address} and e3 ${HOSTS.e3.address} (charge workers)`,
    `  db host PostgreSQL:  ${env.CLUSTER_PG_SETTINGS.length === 0 ? "its defaults (CLUSTER_PG_SETTINGS=none)" : env.CLUSTER_PG_SETTINGS.join(" ")}`,
    "  phases:",
    ...t.phases.map((p) => `    ${p.name.padEnd(66)} ${secs(p.ms)}`),
    `    ${"total".padEnd(66)} ${secs(total)}`,
    `  charging:            first paid ${firstPaidAt ? secs(firstPaidAt - windowStart) : "-"} after the scheduler started; settled ${secs(settledAt - windowStart)} after it`,
    `  cut:                 e2 (${mode}) at ${paidAtCut} paid with ${atCut?.processing ?? "?"} charges processing, for ${secs(cutMs)}; e2's worker ${e2AliveAtHeal ? "still running" : "had exited"} when the cut ended`,
    ...(caught === undefined
      ? []
      : [
          `  cut when:            ${caught ?? `no e2 transaction seen in ${IN_TRANSACTION_WAIT_MS / 1000} s; cut anyway`}`,
        ]),
    `  e2 on PostgreSQL:    at the cut ${e2SessionsAtCut}; when it ended ${e2SessionsAtEnd}`,
    `  e2 held at the end:  ${queuedLine("the gateway", held.gateway)}; ${queuedLine("PostgreSQL", held.postgres)}; ${queuedLine("Redis", held.redis)}`,
    `  after the cut:       ${afterCut}; e2's worker ${e2Running ? "running" : "not running"} at the end`,
    `  attempts:            ${attempts.attempts} for ${n} charges (${attempts.retriedCharges} charges needed more than one); settled by CheckStatus: ${attempts.reconciledPaid} found paid, ${attempts.reconciledNotFound} not found (sent again); ${attempts.markedUnknown} marked unknown; ${attempts.heldForReview} held for review`,
    `  late payments:       ${attempts.lateFound} found late, ${attempts.duplicates} duplicates; refunds: ${attempts.refunds}`,
    budget.line.replace(/^gateway budget: +/, "  gateway budget:      "),
    "  processes:",
    ...processLines,
    "  checks:",
    ...checks.map((c) => `    ${`${c.name}:`.padEnd(58)} ${c.ok ? "yes" : "NO"} (${c.detail})`),
    "",
  ];
  out(lines.join("\n"));
  const failed = checks.some((c) => !c.ok);
  if (failed) keep.logs = true;
  return failed ? 1 : 0;
}

async function main(): Promise<number> {
  const missing = missingPrerequisite() ?? missingTool(env.CLUSTER_CUT_MODE);
  if (missing) {
    out(`cluster: skipped — ${missing}\n`);
    return 0;
  }
  const lock = takeLock();
  const cleanup = new Cleanup();
  cleanup.add("release the lock", () => lock.release());
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted.by = signal;
    out(`\n${signal}: tearing the cluster down…\n`);
    void cleanup.run().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  out(
    `cluster: ${env.CLUSTER_SUBSCRIPTIONS} subscriptions, rate ${env.CLUSTER_RATE}/s, e2 cut (${env.CLUSTER_CUT_MODE}) at ${(env.CLUSTER_CUT_AT * 100).toFixed(0)}% paid, then ${env.CLUSTER_AFTER_CUT}\n`,
  );
  try {
    return await run(cleanup);
  } catch (error) {
    if (interrupted.by === undefined)
      out(`cluster: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    keep.logs = true;
    return 1;
  } finally {
    await cleanup.run();
  }
}

await exitWhenFlushed(await main());
