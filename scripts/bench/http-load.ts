/**
 * The load of `npm run bench:http`, in a process of its own so the server's event loop and file
 * descriptors are not shared with 10,000 client sockets. Reads its plan (LoadPlan, JSON) from
 * BENCH_HTTP_PLAN, runs autocannon with it, and writes one line of JSON (LoadResult) to stdout.
 * Every connection goes through the plan's requests in turn; a request unanswered after
 * `answerSeconds` is a timeout (autocannon drops the connection and opens another). With `rate`,
 * each connection sends at most that many requests a second; without, the next as soon as the last
 * is answered. The process measures its own event-loop delay: a load process that lags is measuring
 * itself (a late timer reads as a late answer), and the caller says so.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import autocannon from "autocannon";

export interface LoadPlan {
  url: string;
  connections: number;
  seconds: number;
  answerSeconds: number;
  /** Requests per second per connection; 0: as fast as answers come. */
  rate: number;
  requests: { name: string; path: string; headers?: Record<string, string> }[];
}

export interface LoadResult {
  /** Response times in ms, each answered request's. */
  latencies: number[];
  /** Answers per request name and status code. */
  statuses: Record<string, Record<string, number>>;
  timeouts: number;
  /** Connection errors other than timeouts (refused, reset). */
  errors: number;
  seconds: number;
  /** This process's own event-loop delay during the run, ms. */
  lag: { p99: number; max: number };
}

const plan = JSON.parse(process.env.BENCH_HTTP_PLAN ?? "") as LoadPlan;
const statuses: LoadResult["statuses"] = {};
const latencies: number[] = [];
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();

const instance = autocannon(
  {
    url: plan.url,
    connections: plan.connections,
    duration: plan.seconds,
    timeout: plan.answerSeconds,
    ...(plan.rate > 0 ? { connectionRate: plan.rate } : {}),
    requests: plan.requests.map((request) => ({
      method: "GET",
      path: request.path,
      headers: request.headers ?? {},
      onResponse: (status: number) => {
        const counts = statuses[request.name] ?? {};
        counts[status] = (counts[status] ?? 0) + 1;
        statuses[request.name] = counts;
      },
    })),
  },
  (error, result) => {
    if (error) throw error;
    const line: LoadResult = {
      latencies,
      statuses,
      timeouts: result.timeouts,
      errors: result.errors - result.timeouts,
      seconds: result.duration,
      lag: { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
    };
    process.stdout.write(`${JSON.stringify(line)}\n`, () => process.exit(0));
  },
);
instance.on("response", (_client, _status, _bytes, responseTime) => {
  latencies.push(responseTime);
});
