/**
 * Secrets that must never reach a log line or an error's raw reply: API keys, API tokens, bearer
 * values and card tokens. They are matched by key name in objects and by shape inside strings
 * (headers, query strings, form bodies, JSON text), whatever the casing the gateway used.
 */
export const REDACTED = "[REDACTED]";

const SECRET_KEY =
  /^(authorization|api[_-]?key|x[_-]api[_-]?key|token|access[_-]?token|bearer[_-]?token|card[_-]?token|cardtoken|pushtoken|push[_-]?token|password|secret|client[_-]?secret|token[_-]?encryption[_-]?key|metrics[_-]?token|cookie)$/i;

const SECRET_IN_TEXT: readonly RegExp[] = [
  /(bearer\s+)[^\s"',;&]+/gi,
  /((?:^|[?&\s"'{,])(?:api[_-]?key|token|access[_-]?token|bearer[_-]?token|card[_-]?token|cardtoken|pushtoken|authorization)\s*["']?\s*[=:]\s*["']?)[^&\s"',}]+/gi,
];

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function redactText(text: string): string {
  let out = text;
  for (const pattern of SECRET_IN_TEXT) out = out.replace(pattern, `$1${REDACTED}`);
  return out;
}

/** Returns a deep copy of `value` with secrets replaced; cycles and depth are bounded. */
export function redact<T>(value: T, depth = 0): T {
  if (typeof value === "string") return redactText(value) as T;
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (value instanceof URLSearchParams) return redactText(value.toString()) as T;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1)) as T;
  if (value instanceof Error) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    out[key] =
      isSecretKey(key) && inner !== null && inner !== undefined ? REDACTED : redact(inner, depth + 1);
  }
  return out as T;
}
