import { randomBytes } from "node:crypto";

/**
 * A new row id made here rather than by the column default (`uuid_v7()`, migration 0024), for rows
 * that must know each other's ids before they are written: the same time-ordered form, RFC 9562
 * version 7. The first 48 bits are Unix milliseconds on the wall clock (the order of writing, not
 * of billing time), the rest random but for the version (0111) and variant (10) bits.
 */
export function newRowId(nowMs: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
