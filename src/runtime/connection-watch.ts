import { performance } from "node:perf_hooks";
import type { Logger } from "../logger/index.js";
import { type OutageState, observeProbe } from "./outage.js";

/**
 * Watches a worker process's connections (database, Redis) and reports the first one that stays
 * down longer than the grace period (outage.ts), so the process can exit for its supervisor to
 * restart instead of lingering half-dead. Probes run one round at a time; a probe that does not
 * answer within the interval counts as failed, so a pool that hangs is caught as well as one that
 * errors. Wall time, not the billing clock: this measures the process, not the billing calendar.
 */

export interface ConnectionProbe {
  name: string;
  /** Resolves when the connection answers; rejects otherwise. */
  check(): Promise<unknown>;
  /** Releases what the probe holds (its own connection). */
  close?(): Promise<unknown> | unknown;
}

export interface ConnectionWatchOptions {
  graceMs: number;
  /** Between rounds, and each probe's timeout. Defaults to a fifth of the grace, 100 ms to 5 s. */
  intervalMs?: number;
  logger: Logger;
  /** Called once, with the first connection found dead; the watch has stopped by then. */
  onDead(name: string, downForMs: number): void;
  /** Monotonic milliseconds; tests pass their own. */
  now?: () => number;
}

export interface ConnectionWatch {
  stop(): Promise<void>;
}

class ProbeTimeout extends Error {
  constructor(name: string, ms: number) {
    super(`${name} did not answer within ${ms} ms`);
    this.name = "ProbeTimeout";
  }
}

async function within(probe: ConnectionProbe, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(probe.name, ms)), ms);
  });
  try {
    await Promise.race([probe.check(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function defaultProbeInterval(graceMs: number): number {
  return Math.min(5_000, Math.max(100, Math.floor(graceMs / 5)));
}

export function watchConnections(
  probes: readonly ConnectionProbe[],
  options: ConnectionWatchOptions,
): ConnectionWatch {
  const intervalMs = options.intervalMs ?? defaultProbeInterval(options.graceMs);
  const now = options.now ?? (() => performance.now());
  const logger = options.logger.child({ component: "connection-watch" });
  let state: OutageState = new Map();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();

  const runRound = async () => {
    for (const probe of probes) {
      const error = await within(probe, intervalMs).then(
        () => undefined,
        (err: unknown) => err,
      );
      if (stopped) return;
      const verdict = observeProbe(
        state,
        { name: probe.name, ok: error === undefined, at: now() },
        options.graceMs,
      );
      state = verdict.state;
      if (verdict.dead) {
        stopped = true;
        options.onDead(probe.name, verdict.downForMs ?? 0);
        return;
      }
      if (verdict.changed && error !== undefined) {
        logger.warn({ err: error, connection: probe.name, graceMs: options.graceMs }, "connection down");
      } else if (verdict.changed) {
        logger.info({ connection: probe.name }, "connection back");
      }
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = runRound().finally(schedule);
    }, intervalMs);
    // The watch alone never keeps a process alive.
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
      await Promise.all(probes.map((probe) => probe.close?.()));
    },
  };
}
