import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { BillingWorker } from "../../../src/queue/index.js";
import { watchWorker } from "../../../src/runtime/worker-role.js";

/** The part of a BullMQ worker watchWorker looks at. */
function fakeWorker() {
  const worker = Object.assign(new EventEmitter(), {
    running: true,
    closing: undefined as Promise<void> | undefined,
    isRunning: () => worker.running,
    close: async () => {},
  });
  return worker;
}

describe("watchWorker", () => {
  it("reports a worker that closed by itself, with the last error it emitted as the cause", () => {
    const worker = fakeWorker();
    const failures: unknown[] = [];
    watchWorker(worker as unknown as BillingWorker, (error) => failures.push(error));

    const lost = Object.assign(new Error("Connection terminated unexpectedly"), { code: undefined });
    worker.emit("error", lost);
    expect(failures).toEqual([]);
    worker.running = false;
    worker.emit("closed");

    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ message: "the worker closed unexpectedly", cause: lost });
  });
});
