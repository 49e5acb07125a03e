/**
 * The body of a legacy request, form-encoded or JSON, with its keys matched case-insensitively
 * (`orderId`, `orderid` and `OrderID` are one field). A blank value counts as not sent, as the spec
 * rejects "an orderId without a value".
 */
export class LegacyFields {
  private readonly values = new Map<string, string>();

  constructor(body: unknown) {
    if (body === null || typeof body !== "object" || Array.isArray(body)) return;
    for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
      const value = Array.isArray(raw) ? raw[0] : raw;
      const lower = key.toLowerCase();
      if (this.values.has(lower)) continue;
      if (typeof value === "string") this.values.set(lower, value);
      else if (typeof value === "number" || typeof value === "boolean") this.values.set(lower, String(value));
    }
  }

  /** The value without surrounding blanks, or undefined when absent or blank. */
  get(name: string): string | undefined {
    return this.raw(name)?.trim();
  }

  /** The value exactly as sent (identifiers such as orderId and cardToken), or undefined when blank. */
  raw(name: string): string | undefined {
    const value = this.values.get(name.toLowerCase());
    return value === undefined || value.trim() === "" ? undefined : value;
  }
}

/** A legacy boolean: true/false (any case) or 1/0; absent is false; anything else is undefined (invalid). */
export function legacyBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return false;
  switch (value.toLowerCase()) {
    case "true":
    case "1":
      return true;
    case "false":
    case "0":
      return false;
    default:
      return undefined;
  }
}
