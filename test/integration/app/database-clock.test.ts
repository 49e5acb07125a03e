import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseClock } from "../../../src/context/index.js";
import { clockState } from "../../../src/db/schema/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe("the database clock", () => {
  it("is one clock for every instance: each sees the other's moves after refresh", async () => {
    const a = await createDatabaseClock(database.db, { start: "2026-01-15T09:00:00Z" });
    const b = await createDatabaseClock(database.db, { start: "2030-01-01T00:00:00Z" });
    expect(b.now().toISO()).toBe("2026-01-15T09:00:00.000Z");

    await a.advance("P1M");
    expect(b.now().toISO()).toBe("2026-01-15T09:00:00.000Z");
    expect((await b.refresh()).toISO()).toBe("2026-02-15T09:00:00.000Z");

    await b.set("2026-01-01T00:00:00Z", { backwards: true });
    expect((await a.refresh()).toISO()).toBe("2026-01-01T00:00:00.000Z");

    const rows = await database.db.select().from(clockState);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.now.toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });

  it("adds up advances made at the same time from different instances", async () => {
    const clocks = await Promise.all([1, 2, 3, 4].map(() => createDatabaseClock(database.db)));
    const before = (await clocks[0]!.refresh()).toMillis();

    await Promise.all(clocks.map((clock) => clock.advance("PT1H")));

    expect((await clocks[0]!.refresh()).toMillis() - before).toBe(4 * 3_600_000);
  });

  it("refuses to set an instant before the stored one unless asked to go back", async () => {
    const clock = await createDatabaseClock(database.db);
    const stored = (await clock.refresh()).toISO();
    await expect(clock.set("2000-01-01T00:00:00Z")).rejects.toThrow(/is before it/);
    expect((await clock.refresh()).toISO()).toBe(stored);
    expect((await clock.set("2000-01-01T00:00:00Z", { backwards: true })).toISO()).toBe(
      "2000-01-01T00:00:00.000Z",
    );
  });

  it("refuses to move backwards through advance", async () => {
    const clock = await createDatabaseClock(database.db);
    const before = clock.now().toISO();
    await expect(clock.advance({ days: -1 })).rejects.toThrow(/only advances forwards/);
    expect((await clock.refresh()).toISO()).toBe(before);
  });
});
