import type { SimulatorCore } from "../core.js";
import type { DelayableOperation } from "../faults/fault-registry.js";
import { runLegacy } from "./operations.js";

/**
 * delayed_apply: a legacy request held back, then run as of its due time on the simulator clock.
 * Held requests are applied by whatever comes first once they are due: the timer on a running
 * clock, or any request (each one first applies what is due, so a frozen clock moved forward shows
 * them applied to the very next read).
 */

/** Keeps the request until `delayMs` has passed on the simulator clock. */
export function holdLegacy(
  core: SimulatorCore,
  operation: DelayableOperation,
  body: unknown,
  delayMs: number,
): void {
  const now = core.now();
  core.delayed.add({ operation, body, receivedAt: now, dueAt: now + delayMs });
  armDelayed(core);
}

/** Runs every held request now due, earliest first, each dated at its due time; answers how many ran. */
export function applyDueLegacy(core: SimulatorCore): number {
  // Every request passes here; with nothing held it costs one property read.
  if (!core.delayed.next) return 0;
  const due = core.delayed.takeDue(core.now());
  for (const entry of due) {
    try {
      core.at(entry.dueAt, () => runLegacy(core, entry.operation, entry.body));
    } catch (error) {
      // A held request has no caller left to answer; one that fails must not stop the others.
      core.logger.error({ err: error, operation: entry.operation }, "delayed application failed");
    }
  }
  armDelayed(core);
  if (due.length > 0) core.changed();
  return due.length;
}

/**
 * Arms the timer for the next held request on a running clock. A frozen clock moves only when told
 * to, so no timer could know when; the next request applies what is due then.
 */
function armDelayed(core: SimulatorCore): void {
  const next = core.delayed.next;
  if (!next || !core.clock.running) {
    core.delayed.disarm();
    return;
  }
  core.delayed.arm(Math.max(0, next.dueAt - core.now()), () => applyDueLegacy(core));
}
