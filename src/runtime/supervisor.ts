import { performance } from "node:perf_hooks";
import type { Logger } from "../logger/index.js";
import { connectionErrorLog } from "../queue/index.js";
import { DEFAULT_RESTART_POLICY, nextRestart, type RestartPolicy } from "./restart-policy.js";

/**
 * Keeps the roles of one process running: a role that stops by itself (its worker closes or its
 * loop dies) is logged and started again after the backoff of restart-policy.ts, and the other
 * roles carry on. The first start is not retried: a role that cannot start at boot fails the
 * start, so a misconfiguration shows at once. Once stop() is called nothing restarts any more, so
 * a graceful shutdown that closes the roles is not mistaken for their failure. Roles that fail
 * because their connection was lost (their database or Redis gone) fail together and again at every
 * restart: that outage is logged once (connection-error-log.ts), other failures each time. Wall
 * time, not the billing clock: this measures the process.
 */

/** Stops a running role, letting the work in hand finish. */
export type StopRole = () => Promise<unknown>;

export interface SupervisedRole {
  name: string;
  /**
   * Starts the role and resolves with how to stop it. The role calls `failed` when it stops by
   * itself; calls after the first, or after its stop function was called, are ignored.
   */
  start(failed: (error: unknown) => void): Promise<StopRole>;
}

/** Runs `run` after `ms`; returns the function that cancels it. */
export type Schedule = (ms: number, run: () => void) => () => void;

export interface RoleRestart {
  role: string;
  /** Failures in a row, this one included. */
  failures: number;
  delayMs: number;
  error: unknown;
}

export interface SupervisorOptions {
  logger: Logger;
  policy?: RestartPolicy;
  /** Monotonic milliseconds; tests pass their own. */
  now?: () => number;
  /** Defaults to an unref'd setTimeout; tests pass their own to fire restarts at once. */
  schedule?: Schedule;
  /** Told of every restart it schedules, after logging it. */
  onRestart?: (restart: RoleRestart) => void;
}

export interface Supervisor {
  /** Cancels pending restarts, waits for restarts under way, then stops every role. Idempotent. */
  stop(): Promise<void>;
}

const timerSchedule: Schedule = (ms, run) => {
  const timer = setTimeout(run, ms);
  // A restart waiting alone never keeps a process alive.
  timer.unref();
  return () => clearTimeout(timer);
};

interface Slot {
  role: SupervisedRole;
  /** Bumped on every failure and restart, so a late `failed` from an old run is ignored. */
  run: number;
  startedAt: number;
  failures: number;
  stopRunning: StopRole | undefined;
  cancelRestart: (() => void) | undefined;
  restarting: Promise<void> | undefined;
}

export async function superviseRoles(
  roles: readonly SupervisedRole[],
  options: SupervisorOptions,
): Promise<Supervisor> {
  const logger = options.logger.child({ component: "supervisor" });
  const now = options.now ?? (() => performance.now());
  const schedule = options.schedule ?? timerSchedule;
  const policy = options.policy ?? DEFAULT_RESTART_POLICY;
  const logFailure = connectionErrorLog(logger, { now });
  const slots: Slot[] = [];
  let stopping = false;

  const stopQuietly = async (slot: Slot, stopRunning: StopRole | undefined) => {
    try {
      await stopRunning?.();
    } catch (err) {
      logger.warn({ err, role: slot.role.name }, "stopping the role failed");
    }
  };

  const startRun = async (slot: Slot): Promise<void> => {
    slot.run += 1;
    const run = slot.run;
    slot.startedAt = now();
    const stopRunning = await slot.role.start((error) => {
      if (run === slot.run) fail(slot, error);
    });
    // A run that failed while it started is already being replaced: release it, keep no handle.
    if (run === slot.run) slot.stopRunning = stopRunning;
    else await stopQuietly(slot, stopRunning);
  };

  const restart = async (slot: Slot): Promise<void> => {
    if (stopping) return;
    try {
      await startRun(slot);
    } catch (error) {
      fail(slot, error);
      return;
    }
    logger.info({ role: slot.role.name, failures: slot.failures }, "role restarted");
  };

  function fail(slot: Slot, error: unknown): void {
    // A role closed by stop() may report that it stopped: that is no failure.
    if (stopping) return;
    const failedRun = slot.stopRunning;
    slot.run += 1;
    slot.stopRunning = undefined;
    const decision = nextRestart(slot.failures, { startedAt: slot.startedAt, failedAt: now() }, policy);
    slot.failures = decision.failures;
    logFailure(
      error,
      { role: slot.role.name, failures: decision.failures, restartInMs: decision.delayMs },
      "role failed; restarting it",
    );
    options.onRestart?.({ role: slot.role.name, ...decision, error });
    // What is left of the failed run (a worker's connections) is released while the delay runs.
    void stopQuietly(slot, failedRun);
    slot.cancelRestart = schedule(decision.delayMs, () => {
      slot.cancelRestart = undefined;
      slot.restarting = restart(slot).finally(() => {
        slot.restarting = undefined;
      });
    });
  }

  const stop = async () => {
    stopping = true;
    for (const slot of slots) slot.cancelRestart?.();
    await Promise.all(slots.map((slot) => slot.restarting));
    await Promise.all([...slots].reverse().map((slot) => stopQuietly(slot, slot.stopRunning)));
  };

  try {
    for (const role of roles) {
      const slot: Slot = {
        role,
        run: 0,
        startedAt: 0,
        failures: 0,
        stopRunning: undefined,
        cancelRestart: undefined,
        restarting: undefined,
      };
      slots.push(slot);
      await startRun(slot);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  let stopped: Promise<void> | undefined;
  return {
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
  };
}
