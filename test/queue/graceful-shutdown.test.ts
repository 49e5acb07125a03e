import { afterEach, describe, expect, it } from "vitest";
import { gracefulShutdown, type ShutdownHandle } from "../../src/queue/index.js";
import { deferred, withDeadline } from "./support.js";

// A signal nothing else in the test process listens to; process.emit only calls the listeners.
const SIGNAL = "SIGUSR2";

describe("gracefulShutdown", () => {
  const handles: ShutdownHandle[] = [];
  afterEach(() => {
    for (const handle of handles.splice(0)) handle.dispose();
  });

  it("closes everything in order on the signal, then exits 0", async () => {
    const order: string[] = [];
    const exited = deferred<number>();
    handles.push(
      gracefulShutdown([{ close: async () => order.push("queues") }, async () => order.push("database")], {
        signals: [SIGNAL],
        exit: (code) => exited.resolve(code),
      }),
    );

    process.emit(SIGNAL, SIGNAL);

    expect(await withDeadline(exited.promise, 5_000, "exit")).toBe(0);
    expect(order).toEqual(["queues", "database"]);
  });

  it("keeps closing after a failure and exits 1", async () => {
    const closed: string[] = [];
    const handle = gracefulShutdown(
      [
        async () => {
          throw new Error("boom");
        },
        async () => closed.push("database"),
      ],
      { signals: [SIGNAL], exit: () => undefined },
    );
    handles.push(handle);

    expect(await handle.shutdown("test")).toBe(1);
    expect(closed).toEqual(["database"]);
  });

  it("exits 1 after a clean close when the shutdown is for a failure", async () => {
    const closed: string[] = [];
    const handle = gracefulShutdown([async () => closed.push("database")], {
      signals: [SIGNAL],
      exit: () => undefined,
    });
    handles.push(handle);

    expect(await handle.shutdown("connection lost", { failed: true })).toBe(1);
    expect(closed).toEqual(["database"]);
  });

  it("exits 1 when closing outlasts the timeout", async () => {
    const never = new Promise<void>(() => undefined);
    const handle = gracefulShutdown([() => never], {
      signals: [SIGNAL],
      timeoutMs: 20,
      exit: () => undefined,
    });
    handles.push(handle);

    expect(await withDeadline(handle.shutdown("test"), 5_000, "the timeout")).toBe(1);
  });

  it("exits 1 at once on a second signal", async () => {
    const codes: number[] = [];
    const stuck = deferred();
    handles.push(
      gracefulShutdown([() => stuck.promise], { signals: [SIGNAL], exit: (code) => codes.push(code) }),
    );

    process.emit(SIGNAL, SIGNAL);
    process.emit(SIGNAL, SIGNAL);

    expect(codes).toEqual([1]);
    stuck.resolve();
  });

  it("stops listening once disposed", () => {
    const before = process.listenerCount(SIGNAL);
    const handle = gracefulShutdown([], { signals: [SIGNAL], exit: () => undefined });
    expect(process.listenerCount(SIGNAL)).toBe(before + 1);
    handle.dispose();
    expect(process.listenerCount(SIGNAL)).toBe(before);
  });
});
