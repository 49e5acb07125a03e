import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiKeyNameError,
  authenticateApiKey,
  createApiKey,
  hashApiKey,
  revokeApiKey,
} from "../../../src/apikeys/index.js";
import { apiKeys } from "../../../src/db/schema/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

describe("API keys", () => {
  it("creates a bk_ key of 40 base62 characters, shown once and stored only as its SHA-256", async () => {
    const created = await createApiKey(t.db, { name: "  billing cli  " });
    expect(created.key).toMatch(/^bk_[0-9A-Za-z]{40}$/);
    expect(created.name).toBe("billing cli");
    expect(created.prefix).toBe(created.key.slice(0, 10));
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.keyHash).toBe(hashApiKey(created.key));
    expect(row?.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.key);
  });

  it("never hands out the same key twice", async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => createApiKey(t.db, { name: "many" })));
    expect(new Set(keys.map((k) => k.key)).size).toBe(20);
  });

  it("refuses a blank name", async () => {
    await expect(createApiKey(t.db, { name: "   " })).rejects.toBeInstanceOf(ApiKeyNameError);
  });

  it("authenticates the key itself and nothing close to it", async () => {
    const { id, key, name, prefix } = await createApiKey(t.db, { name: "merchant" });
    expect(await authenticateApiKey(t.db, key)).toEqual({
      id,
      name,
      prefix,
      scope: "full",
      allowedOperations: null,
    });
    const lastChar = key.at(-1) === "a" ? "b" : "a";
    expect(await authenticateApiKey(t.db, `${key.slice(0, -1)}${lastChar}`)).toBeNull();
    expect(await authenticateApiKey(t.db, key.slice(0, -1))).toBeNull();
    expect(await authenticateApiKey(t.db, `${key} `)).toBeNull();
    expect(await authenticateApiKey(t.db, "")).toBeNull();
  });

  it("records when a key was last used", async () => {
    const { id, key } = await createApiKey(t.db, { name: "used" });
    await authenticateApiKey(t.db, key);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("revokes a key for good, keeping its row", async () => {
    const { id, key } = await createApiKey(t.db, { name: "leaked" });
    expect(await revokeApiKey(t.db, id)).toBe(true);
    expect(await authenticateApiKey(t.db, key)).toBeNull();
    expect(await revokeApiKey(t.db, id)).toBe(false);
    expect(await revokeApiKey(t.db, "not-a-uuid")).toBe(false);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row?.revokedAt).toBeInstanceOf(Date);
  });
});
