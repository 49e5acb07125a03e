import type { TokenVault } from "./token-vault.js";
import { TokenVaultError } from "./token-vault.js";

/**
 * A secret sealed with the token vault (AES-256-GCM, key id as associated data) written as one
 * self-describing text, for a text column that must stay a text column:
 *
 *   v1:<key id>:<base64 nonce>:<base64 tag>:<base64 ciphertext>
 *
 * Key ids hold no ":" and base64 holds none either, so the form splits unambiguously. The key id
 * says which key opens it, so keys rotate as for card tokens (TOKEN_ENCRYPTION_OLD_KEYS).
 */

const SEALED = /^v1:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9+/]{16}):([A-Za-z0-9+/]{22}==):([A-Za-z0-9+/]*={0,2})$/;

export function sealText(vault: TokenVault, text: string): string {
  const { keyId, nonce, tag, ciphertext } = vault.encrypt(text);
  return `v1:${keyId}:${nonce.toString("base64")}:${tag.toString("base64")}:${ciphertext.toString("base64")}`;
}

/** Whether the text has the sealed form; anything else is a value stored in clear. */
export function isSealedText(text: string): boolean {
  return SEALED.test(text);
}

/** The key id a sealed text was sealed with. */
export function sealedTextKeyId(sealed: string): string {
  const match = SEALED.exec(sealed);
  if (!match) throw new TokenVaultError("not a sealed text (v1:<key id>:<nonce>:<tag>:<ciphertext>)");
  return match[1]!;
}

export function openSealedText(vault: TokenVault, sealed: string): string {
  const match = SEALED.exec(sealed);
  if (!match) throw new TokenVaultError("not a sealed text (v1:<key id>:<nonce>:<tag>:<ciphertext>)");
  const [, keyId, nonce, tag, ciphertext] = match;
  return vault.decrypt({
    keyId: keyId!,
    nonce: Buffer.from(nonce!, "base64"),
    tag: Buffer.from(tag!, "base64"),
    ciphertext: Buffer.from(ciphertext!, "base64"),
  });
}
