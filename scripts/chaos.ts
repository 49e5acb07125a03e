/**
 * Chaos suite (`npm run chaos`): the engine runs as separate processes (scheduler, two charge
 * workers, invoice worker) against the gateway simulator in its own process, PostgreSQL and Redis
 * on 127.0.0.1, and each scenario breaks something mid-run, waits for the engine to settle, and
 * checks the money against the simulator's ledger. Every scenario gets a fresh database (dropped
 * afterwards), a fresh Redis key prefix and a fresh simulator; every wait has a deadline, and the
 * whole run stops by itself within CHAOS_DEADLINE_SECONDS. Not part of `npm test`.
 *
 * Exit status 1 when any money is wrong (a period charged twice and not refunded, a period lost,
 * database paid ≠ ledger paid where the gateway kept its state) or a scenario's expectation failed.
 *
 *   CHAOS_ONLY              comma-separated scenario names (default: all; see the list printed)
 *   CHAOS_SUBSCRIPTIONS     due subscriptions per scenario (default 200)
 *   CHAOS_DEADLINE_SECONDS  the whole run's limit (default 900)
 *   CHAOS_LOG_DIR           where each process's log goes (default a new directory under the OS temp dir)
 *   CHAOS_REDIS_URL         Redis (default redis://127.0.0.1:6379)
 *   CHAOS_DATABASE_URL      maintenance database of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { exitWhenFlushed } from "../src/cli/exit.js";
import { bareDecline } from "./chaos/bare-decline.js";
import { gatewayFaults, gatewayForgets, latePayment, wrongKey } from "./chaos/gateway-faults.js";
import { Harness } from "./chaos/harness.js";
import { lateBreaker } from "./chaos/late-breaker.js";
import { type Measurement, measure } from "./chaos/measure.js";
import { killWorker, terminatePostgres, wipeRedis } from "./chaos/process-faults.js";
import type { Check, Scenario } from "./chaos/scenario.js";
import { statusCheckBroken } from "./chaos/status-check-broken.js";
import { formatTable, type Row } from "./chaos/table.js";

const SCENARIOS: readonly Scenario[] = [
  killWorker,
  wipeRedis,
  terminatePostgres,
  gatewayFaults,
  latePayment,
  gatewayForgets,
  wrongKey,
  bareDecline,
  lateBreaker,
  statusCheckBroken,
];
const names = SCENARIOS.map((s) => s.name);

const env = z
  .object({
    CHAOS_ONLY: z
      .string()
      .transform((v) =>
        v
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(z.enum(names as [string, ...string[]], { message: `expected some of ${names.join(", ")}` })),
      )
      .optional(),
    CHAOS_SUBSCRIPTIONS: z.coerce.number().int().min(20).max(5_000).default(200),
    CHAOS_DEADLINE_SECONDS: z.coerce.number().int().min(60).max(3_600).default(900),
    CHAOS_LOG_DIR: z.string().min(1).optional(),
    CHAOS_REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
    CHAOS_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
  })
  .parse(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== "")));

/** Kept back from the run's deadline for the last scenario's teardown. */
const TEARDOWN_RESERVE_MS = 25_000;

/** The checks every scenario shares: the money. */
function moneyChecks(m: Measurement, gatewayForgot: boolean): Check[] {
  return [
    {
      name: "no double charge",
      ok: m.doubleCharges === 0,
      detail: `${m.doubleCharges} periods charged twice`,
    },
    { name: "no lost period", ok: m.lost === 0, detail: `${m.lost} lost` },
    ...(gatewayForgot
      ? []
      : [
          {
            name: "database paid = ledger paid",
            ok: m.paidDb === m.paidLedger && m.paidDbMinor === m.paidLedgerMinor,
            detail: `${m.paidDb} (${m.paidDbMinor} minor) vs ${m.paidLedger} (${m.paidLedgerMinor} minor)`,
          },
        ]),
  ];
}

/** Why charges are held for review: their attempts' recorded reasons, counted. */
async function heldReasons(h: Harness): Promise<string> {
  const rows = await h.sql<{ why: string | null; n: string }[]>`
    select a.decline_description as why, count(*) as n from charge_attempts a
    join charges c on c.id = a.charge_id
    where c.status = 'needs_review' and a.status = 'needs_review'
    group by 1 order by 2 desc`;
  return rows.map((row) => `${row.n}× ${row.why ?? "(no reason recorded)"}`).join("; ");
}

async function main(): Promise<number> {
  const runDeadline = performance.now() + env.CHAOS_DEADLINE_SECONDS * 1000 - TEARDOWN_RESERVE_MS;
  const logDir = env.CHAOS_LOG_DIR ?? mkdtempSync(join(tmpdir(), "billing-chaos-"));
  mkdirSync(logDir, { recursive: true });
  const selected = SCENARIOS.filter((s) => env.CHAOS_ONLY === undefined || env.CHAOS_ONLY.includes(s.name));
  process.stdout.write(
    `chaos: ${selected.length} scenarios × ${env.CHAOS_SUBSCRIPTIONS} due subscriptions; logs in ${logDir}\n`,
  );
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const scenario of selected) {
    const scenarioNotes: string[] = [];
    const deadline = Math.min(performance.now() + scenario.deadlineMs, runDeadline);
    if (deadline <= performance.now() + 10_000) {
      rows.push({
        scenario: scenario.name,
        measurement: undefined,
        settleSeconds: undefined,
        verdict: "FAIL",
      });
      notes.push(`${scenario.name}: not run, the run's deadline (CHAOS_DEADLINE_SECONDS) was reached`);
      continue;
    }
    process.stdout.write(`\n▶ ${scenario.name}: ${scenario.title}\n`);
    let harness: Harness | undefined;
    let row: Row = {
      scenario: scenario.name,
      measurement: undefined,
      settleSeconds: undefined,
      verdict: "FAIL",
    };
    try {
      harness = await Harness.create({
        name: scenario.name,
        databaseUrl: env.CHAOS_DATABASE_URL,
        redisUrl: env.CHAOS_REDIS_URL,
        logDir,
        ...scenario.harness,
      });
      const outcome = await scenario.run({
        h: harness,
        n: env.CHAOS_SUBSCRIPTIONS,
        deadline,
        notes: scenarioNotes,
      });
      const measurement = await measure(harness);
      if (measurement.heldForReview > 0) scenarioNotes.push(`held for review: ${await heldReasons(harness)}`);
      const checks = [...moneyChecks(measurement, outcome.gatewayForgot === true), ...outcome.checks];
      for (const check of checks) {
        process.stdout.write(`  ${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}\n`);
        if (!check.ok) scenarioNotes.push(`FAIL ${check.name}: ${check.detail}`);
      }
      row = {
        scenario: scenario.name,
        measurement,
        settleSeconds: outcome.settleMs / 1000,
        verdict: checks.every((c) => c.ok) ? "ok" : "FAIL",
      };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      process.stdout.write(`  FAIL ${message}\n`);
      scenarioNotes.push(`FAIL ${message}`);
      if (harness) row = { ...row, measurement: await measure(harness).catch(() => undefined) };
    } finally {
      for (const note of scenarioNotes) process.stdout.write(`  · ${note}\n`);
      notes.push(...scenarioNotes.map((note) => `${scenario.name}: ${note}`));
      await harness?.close().catch((error: unknown) => {
        process.stdout.write(
          `  teardown failed: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      });
    }
    rows.push(row);
  }
  process.stdout.write(`\n${formatTable(rows)}\n\n${notes.map((note) => `- ${note}`).join("\n")}\n`);
  return rows.every((row) => row.verdict === "ok") ? 0 : 1;
}

await exitWhenFlushed(await main());
