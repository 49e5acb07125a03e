import type { EngineProcess } from "./engine-process.js";

/** The database URL without its password, to print. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/** What an engine process started and where, as `billing serve --json` prints it. */
export function engineSummary(engine: EngineProcess) {
  const { ctx, setup, simulator, parts } = engine;
  const { config } = ctx;
  return {
    url: parts.http ? engine.url : null,
    public_url: ctx.publicUrl,
    parts,
    database: { source: setup.databaseSource, url: withoutPassword(setup.databaseUrl) },
    queues: { backend: ctx.queues.backend, prefix: ctx.queues.prefix },
    gateway: simulator
      ? { simulator: true, url: simulator.url, api_key: simulator.defaultApiKey }
      : { simulator: false, url: config.GATEWAY_BASE_URL ?? null, api_key: null },
    clock: { mode: config.BILLING_CLOCK, now: ctx.clock.now().toISO() },
    runtime_file: engine.runtimeFile ?? null,
  };
}

const DATABASE_ORIGIN = {
  configured: "DATABASE_URL",
  shared: "the running engine's database (runtime.json)",
  embedded: "embedded PostgreSQL",
} as const;

/**
 * The summary for a person at the terminal. Written to stdout directly rather than logged: the
 * logger redacts the simulator's API key, which the user needs here.
 */
export function describeEngineProcess(engine: EngineProcess): string[] {
  const summary = engineSummary(engine);
  const { parts, gateway, queues, clock } = summary;
  const running = [
    parts.http ? "HTTP server" : undefined,
    parts.scheduler ? "scheduler and its status checks" : undefined,
    parts.workers ? "workers (charges, invoices, token deactivation, webhooks, messages)" : undefined,
  ].filter((part) => part !== undefined);
  const lines = [
    `billing engine running: ${running.join(", ")}`,
    summary.url
      ? `  HTTP        ${summary.url}  (public URL ${summary.public_url}; /healthz live, /readyz ready)`
      : undefined,
    `  database    ${DATABASE_ORIGIN[summary.database.source]}: ${summary.database.url}`,
    queues.backend === "redis"
      ? `  queues      BullMQ on Redis (REDIS_URL), prefix ${queues.prefix}`
      : `  queues      BullMQ on PostgreSQL, schema ${queues.prefix} of the same database`,
    gateway.simulator
      ? `  gateway     simulator in-process at ${gateway.url}, merchant API key ${gateway.api_key}`
      : `  gateway     ${gateway.url}`,
    clock.mode === "controllable"
      ? `  clock       controllable, now ${clock.now} (move it: npm run billing -- clock advance 1mo)`
      : "  clock       system",
    summary.runtime_file
      ? `  runtime     ${summary.runtime_file} (how the billing CLI finds this engine)`
      : undefined,
  ];
  return lines.filter((line) => line !== undefined);
}
