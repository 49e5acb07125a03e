import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import {
  createTokenVault,
  type SealedToken,
  TokenVaultError,
  vaultFromConfig,
} from "../../src/crypto/index.js";
import { SqlState, violates } from "../../src/db/errors.js";
import { paymentMethods } from "../../src/db/schema/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { days, START, seedSubscription } from "./fixtures.js";

// Card tokens "may contain special characters".
const TOKEN = "tok_4d9+/Zx=ä€&%?#'\"\\ 0001";
const k1 = randomBytes(32);
const k2 = randomBytes(32);

function flip(buffer: Buffer, index = 0): Buffer {
  const copy = Buffer.from(buffer);
  copy[index] = (copy[index] ?? 0) ^ 0x01;
  return copy;
}

describe("token vault", () => {
  const vault = createTokenVault({ currentKeyId: "k1", currentKey: k1 });

  it("round-trips a token, with a fresh nonce each time and no token bytes in the ciphertext", () => {
    const a = vault.encrypt(TOKEN);
    const b = vault.encrypt(TOKEN);

    expect(vault.decrypt(a)).toBe(TOKEN);
    expect(a.keyId).toBe("k1");
    expect(a.nonce).toHaveLength(12);
    expect(a.tag).toHaveLength(16);
    expect(a.nonce.equals(b.nonce)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.ciphertext.includes(Buffer.from(TOKEN))).toBe(false);
  });

  it("rotates: old keys still decrypt, the new current key encrypts", () => {
    const sealedUnderK1 = vault.encrypt(TOKEN);
    const rotated = createTokenVault({ currentKeyId: "k2", currentKey: k2, oldKeys: { k1 } });

    expect(rotated.decrypt(sealedUnderK1)).toBe(TOKEN);
    const sealedUnderK2 = rotated.encrypt(TOKEN);
    expect(sealedUnderK2.keyId).toBe("k2");
    expect(rotated.decrypt(sealedUnderK2)).toBe(TOKEN);
    expect(() => vault.decrypt(sealedUnderK2)).toThrow(TokenVaultError);
  });

  it("rejects an unknown key id with a clear error that holds no secret", () => {
    const sealed = vault.encrypt(TOKEN);
    const error = (() => {
      try {
        vault.decrypt({ ...sealed, keyId: "k9" });
      } catch (e) {
        return e as Error;
      }
    })();

    expect(error).toBeInstanceOf(TokenVaultError);
    expect(error?.message).toMatch(/unknown key id "k9".*TOKEN_ENCRYPTION_OLD_KEYS/);
    expect(error?.message).not.toContain(k1.toString("hex"));
  });

  it("rejects tampering with the ciphertext, nonce, tag or key id", () => {
    const both = createTokenVault({ currentKeyId: "k2", currentKey: k2, oldKeys: { k1 } });
    const sealed = both.encrypt(TOKEN);
    const tampered: SealedToken[] = [
      { ...sealed, ciphertext: flip(sealed.ciphertext, 3) },
      { ...sealed, ciphertext: sealed.ciphertext.subarray(1) },
      { ...sealed, nonce: flip(sealed.nonce) },
      { ...sealed, tag: flip(sealed.tag, 15) },
      { ...sealed, keyId: "k1" }, // relabelled: the key id is authenticated data
    ];

    for (const bad of tampered) expect(() => both.decrypt(bad)).toThrow(/failed authentication/);
    expect(() => both.decrypt({ ...sealed, tag: sealed.tag.subarray(0, 4) })).toThrow(
      /malformed nonce or tag/,
    );
  });

  it("fingerprints deterministically, per key, without revealing the token", () => {
    const fingerprint = vault.fingerprint(TOKEN);

    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(vault.fingerprint(TOKEN)).toBe(fingerprint);
    expect(createTokenVault({ currentKeyId: "k1", currentKey: Buffer.from(k1) }).fingerprint(TOKEN)).toBe(
      fingerprint,
    );
    expect(vault.fingerprint(`${TOKEN}x`)).not.toBe(fingerprint);
    expect(createTokenVault({ currentKeyId: "k2", currentKey: k2 }).fingerprint(TOKEN)).not.toBe(fingerprint);
  });

  it("refuses bad keys", () => {
    expect(() => createTokenVault({ currentKeyId: "k1", currentKey: randomBytes(16) })).toThrow(/32 bytes/);
    expect(() => createTokenVault({ currentKeyId: "bad id", currentKey: k1 })).toThrow(/key id/);
    expect(() => createTokenVault({ currentKeyId: "k1", currentKey: k1, oldKeys: { k1: k2 } })).toThrow(
      /both current and old/,
    );
    expect(() => vault.encrypt("")).toThrow(/empty/);
  });

  it("is built from the configuration, old keys included", () => {
    const config = loadConfig({
      TOKEN_ENCRYPTION_KEY: k2.toString("base64"),
      TOKEN_ENCRYPTION_KEY_ID: "k2",
      TOKEN_ENCRYPTION_OLD_KEYS: `k1:${k1.toString("hex")}`,
    });
    const fromConfig = vaultFromConfig(config);

    expect(fromConfig.currentKeyId).toBe("k2");
    expect(fromConfig.decrypt(vault.encrypt(TOKEN))).toBe(TOKEN);
    expect(() => vaultFromConfig(loadConfig({}))).toThrow(/TOKEN_ENCRYPTION_KEY is required/);
    expect(() => vaultFromConfig({ ...config, TOKEN_ENCRYPTION_OLD_KEYS: "k1:not-a-key" })).toThrow(
      /TOKEN_ENCRYPTION_OLD_KEYS entry 1/,
    );
  });
});

describe("payment_methods storage", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.drop());
  const vault = createTokenVault({ currentKeyId: "k1", currentKey: k1 });

  async function saveCard(customerId: string, token: string) {
    const sealed = vault.encrypt(token);
    return t.db
      .insert(paymentMethods)
      .values({
        customerId,
        kind: "recurring",
        tokenCiphertext: sealed.ciphertext,
        tokenNonce: sealed.nonce,
        tokenTag: sealed.tag,
        tokenKeyId: sealed.keyId,
        tokenFingerprint: vault.fingerprint(token),
        cardLast4: "1111",
        cardExpiryMonth: "09/27",
        amountMinor: 10_000,
        currency: "QAR",
        issuedAt: START,
        expiresAt: days(180),
      })
      .returning();
  }

  it("stores only the sealed token: a raw SELECT never shows it, the vault opens it", async () => {
    const { customer } = await seedSubscription(t.db);
    const [saved] = await saveCard(customer.id, TOKEN);

    const raw = await t.sql<{ row: string; json: string }[]>`
      select p::text as row, row_to_json(p)::text as json from payment_methods p where id = ${saved!.id}`;
    const text = `${raw[0]?.row} ${raw[0]?.json}`;
    expect(text).toContain(saved!.tokenFingerprint);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("tok_4d9");
    expect(text.toLowerCase()).not.toContain(Buffer.from("tok_4d9").toString("hex"));

    const [row] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.id, saved!.id));
    expect(Buffer.isBuffer(row!.tokenCiphertext)).toBe(true);
    expect(
      vault.decrypt({
        ciphertext: row!.tokenCiphertext,
        nonce: row!.tokenNonce,
        tag: row!.tokenTag,
        keyId: row!.tokenKeyId,
      }),
    ).toBe(TOKEN);
  });

  it("finds a token saved twice by its fingerprint", async () => {
    const { customer } = await seedSubscription(t.db);
    await saveCard(customer.id, "tok_duplicate");

    const error = await saveCard(customer.id, "tok_duplicate").catch((e: unknown) => e);
    expect(violates(error, SqlState.uniqueViolation, "payment_methods_token_fingerprint_key")).toBe(true);
  });
});
