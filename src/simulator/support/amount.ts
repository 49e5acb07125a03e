import { toMinor } from "../../money/index.js";

/** A positive amount with "." as the decimal separator, in minor units; undefined when it is not one. */
export function parseAmount(value: string | number, currency: string): number | undefined {
  if (typeof value === "string" && !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  try {
    const minor = toMinor(value, currency);
    return minor > 0 ? minor : undefined;
  } catch {
    return undefined;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}
