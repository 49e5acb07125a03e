import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { ControllableClock, systemClock } from "../../../src/clock/index.js";
import {
  ClockBackwardsError,
  type ClockStore,
  createSharedClock,
  isSharedClock,
  refreshClock,
} from "../../../src/context/index.js";

/** The clock_state row, in memory: one instant that several clocks share. */
function memoryStore(initial?: string) {
  let stored: DateTime | undefined =
    initial === undefined ? undefined : DateTime.fromISO(initial, { zone: "utc" });
  let writes = 0;
  const store: ClockStore = {
    read: async () => stored,
    update: async (change) => {
      const next = change(stored);
      stored = next;
      writes += 1;
      return next;
    },
  };
  return { store, writes: () => writes };
}

const iso = (instant: DateTime) => instant.toUTC().toISO();

describe("createSharedClock", () => {
  it("starts from the stored instant and does not write it again", async () => {
    const { store, writes } = memoryStore("2026-01-15T09:00:00Z");
    const clock = await createSharedClock(store, { start: "2030-01-01T00:00:00Z" });
    expect(iso(clock.now())).toBe("2026-01-15T09:00:00.000Z");
    expect(writes()).toBe(0);
  });

  it("stores its start when the store is empty", async () => {
    const { store } = memoryStore();
    const clock = await createSharedClock(store, { start: "2026-03-01T00:00:00+03:00" });
    expect(iso(clock.now())).toBe("2026-02-28T21:00:00.000Z");
    expect(iso((await store.read())!)).toBe("2026-02-28T21:00:00.000Z");
  });

  it("answers now() from its cache until refreshed, then sees another clock's advance", async () => {
    const { store } = memoryStore("2026-01-15T09:00:00Z");
    const a = await createSharedClock(store);
    const b = await createSharedClock(store);

    await a.advance("P1D");
    expect(iso(a.now())).toBe("2026-01-16T09:00:00.000Z");
    expect(iso(b.now())).toBe("2026-01-15T09:00:00.000Z");
    expect(iso(await b.refresh())).toBe("2026-01-16T09:00:00.000Z");
    expect(iso(b.now())).toBe("2026-01-16T09:00:00.000Z");
  });

  it("advances the stored instant, not a stale copy, so advances from two clocks add up", async () => {
    const { store } = memoryStore("2026-01-31T10:00:00Z");
    const a = await createSharedClock(store);
    const b = await createSharedClock(store);

    await a.advance("P1M");
    const after = await b.advance({ hours: 25 });

    expect(iso(after)).toBe("2026-03-01T11:00:00.000Z");
    expect(iso(b.now())).toBe("2026-03-01T11:00:00.000Z");
  });

  it("never goes backwards through advance, but set may go back when asked to", async () => {
    const { store } = memoryStore("2026-06-01T00:00:00Z");
    const clock = await createSharedClock(store);

    await expect(clock.advance("-P1D")).rejects.toThrow(/only advances forwards/);
    await expect(clock.advance("soon")).rejects.toThrow(/invalid duration/);
    expect(iso(clock.now())).toBe("2026-06-01T00:00:00.000Z");
    expect(iso(await clock.set("2025-01-01T00:00:00Z", { backwards: true }))).toBe(
      "2025-01-01T00:00:00.000Z",
    );
    await expect(clock.set("yesterday")).rejects.toThrow(/invalid timestamp/);
  });

  it("refuses set to an instant before the stored one, naming both, and changes nothing", async () => {
    const { store, writes } = memoryStore("2026-01-15T09:00:00Z");
    const clock = await createSharedClock(store);
    // Another process moved the clock on: the stored instant is compared, not this stale copy.
    await store.update(() => DateTime.fromISO("2026-03-01T00:00:00Z", { zone: "utc" }));
    const before = writes();

    const refused = clock.set("2026-02-01T00:00:00Z");
    await expect(refused).rejects.toBeInstanceOf(ClockBackwardsError);
    await expect(refused).rejects.toThrow(
      "the billing clock is at 2026-03-01T00:00:00.000Z; 2026-02-01T00:00:00.000Z is before it",
    );
    expect(iso((await store.read())!)).toBe("2026-03-01T00:00:00.000Z");
    expect(writes()).toBe(before);
    expect(iso(await clock.set("2026-03-01T00:00:00Z"))).toBe("2026-03-01T00:00:00.000Z");
  });

  it("refuses an advance with a negative part, even one that is forwards on average", async () => {
    const { store } = memoryStore("2027-02-01T00:00:00Z");
    const clock = await createSharedClock(store);
    // One casual day, yet from 1 February a month less 29 days lands on 31 January.
    await expect(clock.advance("P1M-29D")).rejects.toThrow(/only advances forwards/);
    expect(iso((await store.read())!)).toBe("2027-02-01T00:00:00.000Z");
  });

  it("tells onChange the first reading and each change, not unchanged refreshes", async () => {
    const { store } = memoryStore("2026-01-15T09:00:00Z");
    const seen: string[] = [];
    const follower = new ControllableClock("2000-01-01T00:00:00Z");
    const clock = await createSharedClock(store, {
      onChange: (now) => {
        seen.push(iso(now)!);
        follower.set(now);
      },
    });

    await clock.refresh();
    await clock.advance("PT1H");
    await store.update((stored) => stored!.plus({ days: 1 }));
    await clock.refresh();
    await clock.refresh();

    expect(seen).toEqual([
      "2026-01-15T09:00:00.000Z",
      "2026-01-15T10:00:00.000Z",
      "2026-01-16T10:00:00.000Z",
    ]);
    expect(iso(follower.now())).toBe("2026-01-16T10:00:00.000Z");
  });
});

describe("refreshClock", () => {
  it("refreshes a shared clock and leaves other clocks alone", async () => {
    const { store } = memoryStore("2026-01-15T09:00:00Z");
    const shared = await createSharedClock(store);
    await store.update(() => DateTime.fromISO("2026-02-01T00:00:00Z", { zone: "utc" }));

    expect(iso(await refreshClock(shared))).toBe("2026-02-01T00:00:00.000Z");
    const fixed = new ControllableClock("2026-05-05T05:05:05Z");
    expect(iso(await refreshClock(fixed))).toBe("2026-05-05T05:05:05.000Z");
    expect(isSharedClock(shared)).toBe(true);
    expect(isSharedClock(fixed)).toBe(false);
    expect(isSharedClock(systemClock)).toBe(false);
  });
});
