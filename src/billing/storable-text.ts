import { z } from "zod";

/**
 * Text PostgreSQL can store as it was sent. A `text` (or jsonb) value cannot hold NUL, and a lone
 * UTF-16 surrogate (valid in a JSON string, not in UTF-8) would be stored as U+FFFD, silently
 * changing the value. Every free-text field of an input schema carries this check, so such text
 * is refused as a bad field instead of failing in the database.
 */

const NUL = "\u0000";
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !text.includes(NUL) && !LONE_SURROGATE.test(text);
}

/** The check for a string field, named in its message: `z.string().check(storableText("name"))`. */
export function storableText(field: string) {
  return z.refine<string>(isStorableText, {
    error: `${field} must not contain NUL characters or unpaired UTF-16 surrogates`,
  });
}
