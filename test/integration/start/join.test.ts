import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createCustomer } from "../../../src/customers/index.js";
import { charges } from "../../../src/db/schema/index.js";
import { findFreePort } from "../../../src/infra/index.js";
import { silentLogger } from "../../../src/logger/index.js";
import { createPlan } from "../../../src/plans/index.js";
import { type EngineProcess, type RuntimeRecord, startEngineProcess } from "../../../src/runtime/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { REDIS_URL } from "../../support/engine.js";
import { jsonOf, REPO_ROOT, runBilling, TSX_LOADER, waitFor } from "../cli/support.js";
import { CARDS, enrollWithCard, freshDataDir } from "./support.js";

/**
 * Other processes find a running engine through `<data dir>/runtime.json`, with nothing configured:
 * a worker process (workers/*.ts) started beside a zero-config `npm start` joins its embedded
 * database and queues and collects its charges; and an engine given DATABASE_URL and REDIS_URL but
 * no gateway still records itself and its in-process simulator, so `billing clock advance` and
 * `billing enroll` reach them.
 */

const dirs: string[] = [];
const engines: EngineProcess[] = [];
const children: ChildProcess[] = [];
let database: TestDatabase | undefined;

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const engine of engines) {
    if (engine.ctx.queues.backend === "redis") await engine.ctx.queues.obliterate().catch(() => undefined);
    await engine.close();
  }
  await database?.drop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/** `node --import tsx workers/<script>` in `cwd` with exactly `env`, its output collected. */
function startWorker(script: string, cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, path.join(REPO_ROOT, "workers", script)], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const output = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  return { child, output, code: exited(child) };
}

describe("a worker process with no configuration", () => {
  it("joins the running zero-config engine through runtime.json and collects its charges", async () => {
    const workDir = await freshDataDir("billing-join-");
    dirs.push(workDir);
    // The engine's data directory is the default one, `.data` in the working directory.
    const dataDir = path.join(workDir, ".data");
    await mkdir(dataDir, { mode: 0o755 });
    const engine = await startEngineProcess({
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        BILLING_DATA_DIR: dataDir,
        // Free ports of their own: suites running in parallel would race for the defaults.
        EMBEDDED_POSTGRES_PORT: String(await findFreePort()),
        GATEWAY_SIM_PORT: "0",
        PORT: "0",
        HOST: "127.0.0.1",
        QUEUE_BACKOFF_MS: "200",
      },
      logger: silentLogger,
      // No workers here: only the separate worker process can collect the charge.
      parts: { http: true, scheduler: false, workers: false },
    });
    engines.push(engine);
    const plan = await createPlan(
      engine.ctx,
      { name: "Pro", amount: "99.00", currency: "QAR", interval: "month" },
      { actor: "test" },
    );
    const { subscriptionId } = await enrollWithCard(
      engine.ctx,
      engine.simulator!,
      plan.id,
      "joined@example.qa",
      CARDS.approves,
    );

    const worker = startWorker("charge-worker.ts", workDir, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
    });
    await waitFor(
      "the worker process to run",
      async () => {
        if (worker.child.exitCode !== null) {
          throw new Error(`the worker exited with ${worker.child.exitCode}: ${worker.output.stderr}`);
        }
        return worker.output.stdout.includes("worker process running") ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(await runBillingTick(engine.ctx, { batchSize: 100 })).toMatchObject({ chargesEnqueued: 1 });
    const paid = await waitFor(
      "the charge paid by the worker process",
      async () => {
        const [charge] = await engine.ctx.db
          .select({ status: charges.status })
          .from(charges)
          .where(eq(charges.subscriptionId, subscriptionId));
        return charge?.status === "paid" ? charge : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(paid.status).toBe("paid");

    worker.child.kill("SIGTERM");
    expect(await worker.code).toBe(0);
  }, 180_000);

  it("exits 1 saying how to start an engine when there is none to join", async () => {
    const workDir = await freshDataDir("billing-join-none-");
    dirs.push(workDir);
    const worker = startWorker("invoice-worker.ts", workDir, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
    });
    expect(await worker.code).toBe(1);
    expect(worker.output.stderr).toContain(
      `no running engine found: ${path.join(workDir, ".data", "runtime.json")}`,
    );
    expect(worker.output.stderr).toContain("npm start");
  });
});

describe("an engine given DATABASE_URL and REDIS_URL but no gateway", () => {
  it("records itself and its simulator in runtime.json, so the CLI enrolls and moves the clock", async () => {
    database = await createTestDatabase();
    const dataDir = await freshDataDir("billing-join-configured-");
    dirs.push(dataDir);
    const base = { PATH: process.env.PATH, HOME: process.env.HOME, BILLING_DATA_DIR: dataDir };
    const shell = {
      ...base,
      DATABASE_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: `t_${randomBytes(5).toString("hex")}`,
      LOG_LEVEL: "silent",
    };
    const engine = await startEngineProcess({
      env: { ...shell, GATEWAY_SIM_PORT: "0", PORT: "0", HOST: "127.0.0.1" },
      logger: silentLogger,
      parts: { http: true, scheduler: false, workers: false },
    });
    engines.push(engine);
    const runtimeFile = path.join(dataDir, "runtime.json");
    expect(engine.runtimeFile).toBe(runtimeFile);
    const record = JSON.parse(await readFile(runtimeFile, "utf8")) as RuntimeRecord;
    expect(record).toMatchObject({
      pid: process.pid,
      database_url: database.url,
      redis_url: REDIS_URL,
      queue_prefix: shell.QUEUE_PREFIX,
      gateway: { url: engine.simulator!.url, api_key: engine.simulator!.defaultApiKey },
      clock: "controllable",
      queue_backend: "redis",
    });

    // From a shell with the same variables: the clock moves, the in-process simulator's with it.
    const moved = jsonOf<{ simulator: string }>(
      await runBilling(["clock", "advance", "1d", "--json"], shell),
    );
    expect(moved.simulator).toBe("moved");

    // From a shell with none of them: the engine's database and simulator, found in runtime.json.
    const plan = await createPlan(
      engine.ctx,
      { name: "Pro", amount: "99.00", currency: "QAR", interval: "month" },
      { actor: "test" },
    );
    const { customer } = await createCustomer(engine.ctx, { email: "cli@example.qa" }, { actor: "test" });
    const enrolled = jsonOf<{ checkout_url: string }>(
      await runBilling(["enroll", "--customer", customer.id, "--plan", plan.id, "--json"], base),
    );
    expect(enrolled.checkout_url.startsWith(`${engine.simulator!.url}/`)).toBe(true);

    await engine.ctx.queues.obliterate();
    await engine.close();
    engines.splice(engines.indexOf(engine), 1);
    await expect(stat(runtimeFile)).rejects.toThrow();
  }, 120_000);
});
