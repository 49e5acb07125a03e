import { DateTime } from "luxon";
import { z } from "zod";
import { MoneyFormatError, toMinor } from "../../money/index.js";
import type { SimReply } from "../types.js";
import { badRequest } from "./errors.js";
import { decimalText } from "./invoices-decimal.js";

/**
 * Request validation shared by the invoice and product handlers: every failure becomes one 400
 * whose description names the offending field ("client.email: invalid e-mail format").
 */

/** The merchant's local time zone; the spec's sample dates carry the Qatar offset. */
export const SIM_ZONE = "Asia/Qatar";

/** A rejected request; `description` is what goes into the v1 error body. */
export class RequestError extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = "RequestError";
  }
}

export const fieldError = (field: string, reason: string): RequestError =>
  new RequestError(`${field}: ${reason}`);

/** "items[0].amount" from zod's ["items", 0, "amount"]; the body itself is "body". */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "body";
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
};

/** Plain-language messages for zod's generic issues; schema-specific messages take precedence. */
function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_big":
      return issue.origin === "string" ? `must be at most ${issue.maximum} characters` : undefined;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    default:
      return undefined;
  }
}

/** Parses a request body or query, throwing a RequestError that lists every offending field. */
export function parseRequest<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input, { error: issueMessage });
  if (result.success) return result.data;
  throw new RequestError(
    result.error.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join("; "),
  );
}

/** Runs a handler, answering a RequestError with the v1 Bad Request body. */
export function guarded(handler: () => SimReply): SimReply {
  try {
    return handler();
  } catch (error) {
    if (error instanceof RequestError) return badRequest(error.description);
    throw error;
  }
}

/** A required value parsed by `read`; absent values say "is required", others `message`. */
export function parsedField<T>(read: (value: unknown) => T | undefined, message: string) {
  return z.unknown().transform((value, ctx): T => {
    const out = value === undefined ? undefined : read(value);
    if (out === undefined) {
      ctx.addIssue({ code: "custom", message: value === undefined ? "is required" : message });
      return z.NEVER;
    }
    return out;
  });
}

/** A decimal sent as a JSON number or a numeric string, kept as its exact text. */
export const decimalField = () => parsedField(decimalText, "must be a non-negative decimal number");

function readDateTime(value: unknown): DateTime | undefined {
  if (typeof value !== "string") return undefined;
  // Without an offset the value is read as Qatar local time; with one, the instant is kept.
  const parsed = DateTime.fromISO(value.trim(), { zone: SIM_ZONE, setZone: true });
  return parsed.isValid ? parsed : undefined;
}

/** An ISO 8601 date or date-time. */
export const dateTimeField = () =>
  parsedField(readDateTime, "must be an ISO 8601 date or date-time, e.g. 2026-11-23T10:00:00+03:00");

/** Money of a field in the given currency; too many decimals for the currency is the field's fault. */
export function moneyOf(field: string, text: string, currency: string): number {
  try {
    return toMinor(text, currency);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw fieldError(field, error.message);
    throw error;
  }
}

/** Datetimes on the wire: Qatar time, whole seconds ("2026-11-23T10:00:00+03:00"). */
export const wireDateTime = (instant: DateTime): string =>
  instant.setZone(SIM_ZONE).startOf("second").toISO({ suppressMilliseconds: true }) ?? "";
