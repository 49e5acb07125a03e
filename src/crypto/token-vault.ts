import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { type Config, decodeKey } from "../config/index.js";

/**
 * Seals card tokens for storage in payment_methods (token_ciphertext, token_nonce, token_tag,
 * token_key_id) with AES-256-GCM. Rules:
 * - a fresh random 12-byte nonce per encryption, never reused under a key;
 * - the key id is authenticated as associated data, so relabelling a row with another key id
 *   fails authentication instead of decrypting under the wrong key;
 * - new tokens are sealed with the current key; old keys only decrypt, so keys rotate by adding
 *   a new current key and moving the previous one to the old keys until every row is resealed;
 * - the fingerprint is an HMAC-SHA256 of the token under a subkey derived from the current key
 *   (never the encryption key itself); it is deterministic, so the unique index on
 *   token_fingerprint finds a token saved twice without decrypting anything. Rows resealed under
 *   a new key get a new fingerprint with it.
 * Errors never include a token or key material.
 */

export interface SealedToken {
  ciphertext: Buffer;
  nonce: Buffer;
  tag: Buffer;
  keyId: string;
}

export interface TokenVault {
  /** The key id new tokens are sealed with. */
  readonly currentKeyId: string;
  encrypt(token: string): SealedToken;
  decrypt(sealed: SealedToken): string;
  /** Lower-case hex HMAC-SHA256 of the token, for duplicate detection. */
  fingerprint(token: string): string;
}

export interface TokenVaultKeys {
  currentKeyId: string;
  currentKey: Buffer;
  /** Retired keys, by id, kept to decrypt tokens sealed before a rotation. */
  oldKeys?: Record<string, Buffer>;
}

export class TokenVaultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TokenVaultError";
  }
}

const ALGORITHM = "aes-256-gcm";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const FINGERPRINT_INFO = "billing-engine card-token fingerprint v1";

function checkKey(keyId: string, key: Buffer): void {
  if (!KEY_ID.test(keyId)) {
    throw new TokenVaultError(`token key id ${JSON.stringify(keyId)} must be 1-32 of A-Z a-z 0-9 _ -`);
  }
  if (key.length !== KEY_BYTES) {
    throw new TokenVaultError(`token key ${keyId} must be ${KEY_BYTES} bytes, got ${key.length}`);
  }
}

export function createTokenVault({ currentKeyId, currentKey, oldKeys = {} }: TokenVaultKeys): TokenVault {
  const keys = new Map<string, Buffer>();
  for (const [keyId, key] of Object.entries(oldKeys)) {
    checkKey(keyId, key);
    keys.set(keyId, Buffer.from(key));
  }
  checkKey(currentKeyId, currentKey);
  const previous = keys.get(currentKeyId);
  if (previous && !previous.equals(currentKey)) {
    throw new TokenVaultError(`token key id ${currentKeyId} is both current and old with different keys`);
  }
  keys.set(currentKeyId, Buffer.from(currentKey));
  const fingerprintKey = Buffer.from(hkdfSync("sha256", currentKey, Buffer.alloc(0), FINGERPRINT_INFO, 32));

  return {
    currentKeyId,

    encrypt(token) {
      if (token.length === 0) throw new TokenVaultError("refusing to seal an empty card token");
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv(ALGORITHM, keys.get(currentKeyId)!, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(currentKeyId, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
      return { ciphertext, nonce, tag: cipher.getAuthTag(), keyId: currentKeyId };
    },

    decrypt({ ciphertext, nonce, tag, keyId }) {
      const key = keys.get(keyId);
      if (!key) {
        throw new TokenVaultError(
          `card token sealed with unknown key id ${JSON.stringify(keyId)}; add it to TOKEN_ENCRYPTION_OLD_KEYS`,
        );
      }
      if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) {
        throw new TokenVaultError(`card token under key ${keyId} has a malformed nonce or tag`);
      }
      const decipher = createDecipheriv(ALGORITHM, key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(keyId, "utf8"));
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
      } catch {
        throw new TokenVaultError(
          `card token under key ${keyId} failed authentication: ciphertext, nonce, tag or key id was altered, or the key is wrong`,
        );
      }
    },

    fingerprint(token) {
      return createHmac("sha256", fingerprintKey).update(token, "utf8").digest("hex");
    },
  };
}

/** Parses TOKEN_ENCRYPTION_OLD_KEYS ("kid:key,kid:key"); names a bad entry by key id only. */
function parseOldKeys(value: string | undefined): Record<string, Buffer> {
  const oldKeys: Record<string, Buffer> = {};
  if (!value) return oldKeys;
  for (const [index, entry] of value.split(",").entries()) {
    const separator = entry.indexOf(":");
    const keyId = entry.slice(0, Math.max(separator, 0)).trim();
    const key = decodeKey(entry.slice(separator + 1).trim());
    if (!keyId || !key) {
      throw new TokenVaultError(
        `TOKEN_ENCRYPTION_OLD_KEYS entry ${index + 1} is not kid:<32 bytes as 64 hex characters or base64>`,
      );
    }
    if (keyId in oldKeys) throw new TokenVaultError(`TOKEN_ENCRYPTION_OLD_KEYS lists key id ${keyId} twice`);
    oldKeys[keyId] = key;
  }
  return oldKeys;
}

export function vaultFromConfig(
  config: Pick<Config, "TOKEN_ENCRYPTION_KEY" | "TOKEN_ENCRYPTION_KEY_ID" | "TOKEN_ENCRYPTION_OLD_KEYS">,
): TokenVault {
  const currentKey = config.TOKEN_ENCRYPTION_KEY ? decodeKey(config.TOKEN_ENCRYPTION_KEY) : undefined;
  if (!currentKey) {
    throw new TokenVaultError(
      "TOKEN_ENCRYPTION_KEY is required to store card tokens (32 bytes as 64 hex characters or base64)",
    );
  }
  return createTokenVault({
    currentKeyId: config.TOKEN_ENCRYPTION_KEY_ID,
    currentKey,
    oldKeys: parseOldKeys(config.TOKEN_ENCRYPTION_OLD_KEYS),
  });
}
