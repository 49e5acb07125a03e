/**
 * The load of `npm run bench:usage`, in a process of its own so that building and sending bodies
 * does not share the server's event loop. Reads its plan (UsageLoadPlan, JSON) from the file named
 * by BENCH_USAGE_PLAN, builds every request body BEFORE the clock starts, then `clients` loops each
 * POST the next batch to /v1/usage as soon as their last one is answered. Then it sends again the
 * first `resend` batches as they were, and as many with every timestamp one second later: each of
 * those events must come back `duplicate`. Writes one line of JSON (UsageLoadResult) to stdout.
 */
import { readFileSync } from "node:fs";

export interface UsageLoadPlan {
  url: string;
  key: string;
  subscriptions: string[];
  /** Meter codes; an event of the unique_count meter `users` carries a distinct_value. */
  meters: string[];
  events: number;
  batch: number;
  clients: number;
  /** Batches sent again after the run (twice: verbatim, and with moved timestamps). */
  resend: number;
  /** Event timestamps are spread over the hour before this instant (ISO). */
  now: string;
}

export interface Tally {
  accepted: number;
  duplicate: number;
  refused: number;
  /** Answers other than 200, by status. */
  failures: Record<string, number>;
  /** The first refusal reasons seen, for the report. */
  reasons: string[];
}

export interface UsageLoadResult {
  main: Tally & { seconds: number; requests: number; latencies: { p50: number; p99: number; max: number } };
  resent: Tally & { events: number };
}

interface Body {
  events: Record<string, unknown>[];
}

const plan = JSON.parse(readFileSync(process.env.BENCH_USAGE_PLAN ?? "", "utf8")) as UsageLoadPlan;
const now = Date.parse(plan.now);

function buildBatches(): Body[] {
  const batches: Body[] = [];
  for (let first = 0; first < plan.events; first += plan.batch) {
    const events: Record<string, unknown>[] = [];
    for (let i = first; i < Math.min(first + plan.batch, plan.events); i += 1) {
      const meter = plan.meters[i % plan.meters.length]!;
      events.push({
        id: `ev-${i}`,
        subscription_id: plan.subscriptions[i % plan.subscriptions.length],
        meter,
        quantity: 1 + (i % 997),
        timestamp: new Date(now - ((i * 7919) % 3_600_000)).toISOString(),
        ...(meter === "users" ? { distinct_value: `user-${i % 5000}` } : {}),
      });
    }
    batches.push({ events });
  }
  return batches;
}

const emptyTally = (): Tally => ({ accepted: 0, duplicate: 0, refused: 0, failures: {}, reasons: [] });

async function send(body: string, tally: Tally): Promise<void> {
  const response = await fetch(`${plan.url}/v1/usage`, {
    method: "POST",
    headers: { authorization: `Bearer ${plan.key}`, "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) {
    tally.failures[response.status] = (tally.failures[response.status] ?? 0) + 1;
    if (tally.reasons.length < 3) tally.reasons.push(text.slice(0, 300));
    return;
  }
  const answer = JSON.parse(text) as {
    accepted: number;
    duplicates: number;
    refused: number;
    results: { reason?: string }[];
  };
  tally.accepted += answer.accepted;
  tally.duplicate += answer.duplicates;
  tally.refused += answer.refused;
  if (answer.refused > 0 && tally.reasons.length < 3) {
    tally.reasons.push(answer.results.find((r) => r.reason)?.reason ?? "");
  }
}

/** Sends every body with `clients` loops; returns the latencies in ms. */
async function run(bodies: readonly string[], tally: Tally): Promise<number[]> {
  const latencies: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const started = performance.now();
      await send(body, tally);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: plan.clients }, client));
  return latencies;
}

const batches = buildBatches();
const bodies = batches.map((batch) => JSON.stringify(batch));
const main = emptyTally();
const started = performance.now();
const latencies = await run(bodies, main);
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? 0;

const again = batches.slice(0, plan.resend);
const moved = again.map((batch) => ({
  events: batch.events.map((event) => ({
    ...event,
    timestamp: new Date(Date.parse(String(event.timestamp)) + 1000).toISOString(),
  })),
}));
const resent = emptyTally();
const resendBodies = [...again, ...moved].map((batch) => JSON.stringify(batch));
await run(resendBodies, resent);

const result: UsageLoadResult = {
  main: {
    ...main,
    seconds,
    requests: bodies.length,
    latencies: { p50: at(0.5), p99: at(0.99), max: latencies.at(-1) ?? 0 },
  },
  resent: { ...resent, events: [...again, ...moved].reduce((n, batch) => n + batch.events.length, 0) },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
