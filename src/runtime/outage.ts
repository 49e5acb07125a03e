/**
 * Rule: a connection is dead once its probes have failed without a break for longer than the grace
 * period. One successful probe forgets the outage, so drops that reconnect in time cost nothing.
 * Pure: the caller supplies the time (monotonic milliseconds) and keeps the state.
 */

/** For each connection that is down: when its current run of failed probes began. */
export type OutageState = ReadonlyMap<string, number>;

export interface ProbeVerdict {
  state: OutageState;
  /** How long the connection has been down; undefined when the probe succeeded. */
  downForMs: number | undefined;
  /** The probe failed and the outage is longer than the grace period. */
  dead: boolean;
  /** This probe changed the connection from up to down, or from down to up. */
  changed: boolean;
}

export function observeProbe(
  state: OutageState,
  probe: { name: string; ok: boolean; at: number },
  graceMs: number,
): ProbeVerdict {
  const since = state.get(probe.name);
  const next = new Map(state);
  if (probe.ok) {
    next.delete(probe.name);
    return { state: next, downForMs: undefined, dead: false, changed: since !== undefined };
  }
  const start = since ?? probe.at;
  next.set(probe.name, start);
  const downForMs = probe.at - start;
  return { state: next, downForMs, dead: downForMs > graceMs, changed: since === undefined };
}
