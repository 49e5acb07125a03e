/**
 * Measures the simulator's GetnewPayment throughput: a keep-alive HTTP client with N requests in
 * flight charges an autosave token until it has sent --requests or --seconds ran out, and prints
 * requests per second and latency percentiles.
 *
 *   npx tsx scripts/bench-simulator.ts [--concurrency 32] [--requests 30000] [--seconds 10]
 *                                      [--url http://127.0.0.1:4010 --api-key <GUID>]
 *
 * Without --url it starts the simulator (scripts/gateway.ts) in a child process, so the client and
 * the server do not share one event loop, and stops it at the end. The load client writes HTTP/1.1
 * on plain keep-alive sockets (one request in flight per socket) so that it costs the 2-core machine
 * as little as possible and the figure is the server's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    concurrency: { type: "string", default: "32" },
    requests: { type: "string", default: "30000" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "1000" },
    url: { type: "string" },
    "api-key": { type: "string" },
  },
});
const concurrency = Number(values.concurrency);
const maxRequests = Number(values.requests);
const maxSeconds = Number(values.seconds);
const warmup = Number(values.warmup);

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function request(
  base: string,
  path: string,
  body: string,
  type: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, base),
      { method: "POST", agent, headers: { "content-type": type, "content-length": Buffer.byteLength(body) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const postJson = async (base: string, path: string, body: unknown) =>
  JSON.parse((await request(base, path, JSON.stringify(body), "application/json")).text);

/** Starts scripts/gateway.ts on a free port and reads its URL and API key from its first lines. */
async function startChild(): Promise<{ child: ChildProcess; url: string; apiKey: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/gateway.ts"], {
    env: { ...process.env, GATEWAY_SIM_PORT: "0", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let url = "";
  let apiKey = "";
  for await (const line of createInterface({ input: child.stdout! })) {
    url ||= /listening on (\S+)/.exec(line)?.[1] ?? "";
    apiKey ||= /api key: (\S+)/.exec(line)?.[1] ?? "";
    if (url && apiKey) break;
  }
  if (!url || !apiKey) throw new Error("the simulator did not print its URL and API key");
  return { child, url, apiKey };
}

/** One autosave checkout paid with the always-approving card gives the token to charge. */
async function enroll(url: string, apiKey: string): Promise<string> {
  const added = await postJson(url, "/v3/AddTransaction", {
    token: apiKey,
    orderId: "bench-enroll",
    amount: "1.00",
    customerEmail: "bench@example.com",
    autoSave: "yes",
  });
  await postJson(url, "/_sim/pay", {
    checkout_url: added.result,
    card_number: "4111111111111111",
    expiry: "12/99",
    cvv: "123",
    name: "Bench",
  });
  const status = await postJson(url, "/v3/CheckStatus", { token: apiKey, orderId: "bench-enroll" });
  const token = status.payment?.token;
  if (typeof token !== "string") throw new Error(`enrollment failed: ${JSON.stringify(status)}`);
  return token;
}

/** A keep-alive connection that sends one request at a time and reads the Content-Length reply. */
class Connection {
  private readonly socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting:
    | { resolve: (reply: { status: number; body: string }) => void; reject: (error: Error) => void }
    | undefined;

  constructor(url: URL) {
    this.socket = net.connect(Number(url.port), url.hostname);
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk) => this.onData(chunk));
    this.socket.on("error", (error) => this.waiting?.reject(error));
    this.socket.on("close", () => this.waiting?.reject(new Error("connection closed")));
  }

  send(path: string, host: string, body: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const headerEnd = this.buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0) return;
    const head = this.buffer.subarray(0, headerEnd).toString("latin1");
    const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffer.length < headerEnd + 4 + length) return;
    const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString("utf8");
    this.buffer = this.buffer.subarray(headerEnd + 4 + length);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve({ status: Number(head.slice(9, 12)), body });
  }

  close(): void {
    this.socket.destroy();
  }
}

async function run(url: string, apiKey: string, cardToken: string, count: number, seconds: number) {
  const latencies: number[] = [];
  let sent = 0;
  let approved = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const target = new URL(url);
  const encodedToken = encodeURIComponent(cardToken);
  const worker = async () => {
    const connection = new Connection(target);
    while (sent < count && performance.now() < deadline) {
      const n = sent++;
      const body = `token=${apiKey}&cardToken=${encodedToken}&orderId=bench-${n}&amount=1.00`;
      const t0 = performance.now();
      const reply = await connection.send("/v3/GetnewPayment", target.host, body);
      latencies.push(performance.now() - t0);
      if (reply.status === 200 && reply.body.startsWith('{"result":1')) approved++;
    }
    connection.close();
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { sent, approved, elapsed, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99) };
}

const external = values.url !== undefined;
if (external && !values["api-key"]) throw new Error("--url needs --api-key");
const started = external ? undefined : await startChild();
const url = values.url ?? started!.url;
const apiKey = values["api-key"] ?? started!.apiKey;
try {
  const cardToken = await enroll(url, apiKey);
  await run(url, apiKey, cardToken, warmup, maxSeconds);
  const result = await run(url, apiKey, cardToken, maxRequests, maxSeconds);
  const rps = result.sent / result.elapsed;
  process.stdout.write(
    `GetnewPayment: ${result.sent} requests (${result.approved} approved) in ${result.elapsed.toFixed(2)} s ` +
      `with ${concurrency} in flight = ${rps.toFixed(0)} requests/second; latency p50 ${result.p50.toFixed(2)} ms, ` +
      `p95 ${result.p95.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms\n`,
  );
} finally {
  agent.destroy();
  started?.child.kill("SIGTERM");
}
