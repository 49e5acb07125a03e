import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger/index.js";
import { connectionErrorLog, isConnectionError } from "../../../src/queue/index.js";

/** A logger at debug level whose lines are kept, parsed. */
function capturingLogger() {
  const lines: { level: number; msg: string; err?: Record<string, unknown>; queue?: string }[] = [];
  const logger = createLogger({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** What node-postgres reports when the server goes: a FATAL with a client object attached. */
function postmasterExit() {
  return Object.assign(new Error("terminating connection due to unexpected postmaster exit"), {
    code: "57P01",
    severity: "FATAL",
    client: { connectionParameters: { host: "127.0.0.1" }, _queryQueue: [] },
  });
}
const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:54329"), { code: "ECONNREFUSED" });

describe("isConnectionError", () => {
  it("knows a lost or refused connection from the drivers' errors, and nothing else", () => {
    expect(isConnectionError(postmasterExit())).toBe(true);
    expect(isConnectionError(refused())).toBe(true);
    expect(isConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isConnectionError(Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" })),
    ).toBe(true);
    expect(isConnectionError(new AggregateError([refused()], "all addresses refused"))).toBe(true);
    expect(isConnectionError(new Error("wrapped", { cause: refused() }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionError(new Error("job payload did not validate"))).toBe(false);
    expect(isConnectionError("ECONNREFUSED")).toBe(false);
  });
});

describe("connectionErrorLog", () => {
  it("logs an outage's first connection error once, in brief, and the rest at debug", () => {
    const { logger, lines } = capturingLogger();
    let now = 0;
    const log = connectionErrorLog(logger, { quietMs: 1_000, now: () => now });

    for (const queue of ["charges", "invoices", "charges", "webhooks"]) {
      log(postmasterExit(), { queue }, "worker error");
      now += 10;
    }
    log(refused(), { queue: "charges" }, "queue error");

    const errors = lines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ queue: "charges", err: { code: "57P01" } });
    expect(errors[0]!.msg).toContain("worker error");
    // The driver's client object is not part of the line.
    expect(JSON.stringify(errors[0])).not.toContain("connectionParameters");
    expect(lines.filter((line) => line.level === 20)).toHaveLength(4);
  });

  it("tells a new outage once the connection errors have stopped for the quiet period", () => {
    const { logger, lines } = capturingLogger();
    let now = 0;
    const log = connectionErrorLog(logger, { quietMs: 1_000, now: () => now });
    log(refused(), { queue: "charges" }, "worker error");
    now += 900;
    log(refused(), { queue: "charges" }, "worker error");
    now += 1_001;
    log(refused(), { queue: "charges" }, "worker error");
    expect(lines.map((line) => line.level)).toEqual([50, 20, 50]);
  });

  it("logs every other error in full, outage or not", () => {
    const { logger, lines } = capturingLogger();
    const log = connectionErrorLog(logger, { quietMs: 1_000, now: () => 0 });
    log(refused(), { queue: "charges" }, "worker error");
    log(new Error("the lock was lost"), { queue: "charges" }, "worker error");
    log(new Error("the lock was lost"), { queue: "charges" }, "worker error");
    expect(lines.map((line) => line.level)).toEqual([50, 50, 50]);
    expect(lines[1]!.err).toMatchObject({ message: "the lock was lost", stack: expect.any(String) });
  });
});
