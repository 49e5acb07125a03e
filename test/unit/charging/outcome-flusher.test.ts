import { afterEach, describe, expect, it, vi } from "vitest";
import { createOutcomeFlusher } from "../../../src/charging/outcome-flusher.js";

describe("the outcome flusher", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("records outcomes that finish within flushMs together, and resolves each with its own result", async () => {
    vi.useFakeTimers();
    const groups: number[][] = [];
    const flusher = createOutcomeFlusher<number, string>({
      flushMs: 20,
      maxGroup: 100,
      flush: async (items) => {
        groups.push([...items]);
        return items.map((item) => `r${item}`);
      },
    });
    const first = [flusher.add(1), flusher.add(2)];
    await vi.advanceTimersByTimeAsync(10);
    first.push(flusher.add(3));
    expect(groups).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    expect(await Promise.all(first)).toEqual(["r1", "r2", "r3"]);
    const later = flusher.add(4);
    await vi.advanceTimersByTimeAsync(20);
    expect(await later).toBe("r4");
    expect(groups).toEqual([[1, 2, 3], [4]]);
  });

  it("flushes at once when maxGroup outcomes have gathered", async () => {
    const groups: number[][] = [];
    const flusher = createOutcomeFlusher<number, number>({
      flushMs: 60_000,
      maxGroup: 2,
      flush: async (items) => {
        groups.push([...items]);
        return [...items];
      },
    });
    expect(await Promise.all([flusher.add(1), flusher.add(2)])).toEqual([1, 2]);
    expect(groups).toEqual([[1, 2]]);
  });

  it("retries a failed group one item at a time, so only the bad item fails", async () => {
    const flushed: number[][] = [];
    const flusher = createOutcomeFlusher<number, number>({
      flushMs: 0,
      maxGroup: 3,
      flush: async (items) => {
        flushed.push([...items]);
        if (items.includes(2)) throw new Error(`cannot record ${items.join(",")}`);
        return items.map((item) => item * 10);
      },
    });
    const results = await Promise.allSettled([flusher.add(1), flusher.add(2), flusher.add(3)]);
    expect(results).toEqual([
      { status: "fulfilled", value: 10 },
      { status: "rejected", reason: new Error("cannot record 2") },
      { status: "fulfilled", value: 30 },
    ]);
    expect(flushed).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
