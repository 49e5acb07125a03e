/**
 * The parameters of a gateway callback as one flat string record, from the query string and the
 * body (form, JSON or none). The gateway's parameters are flat, so nested values are dropped. A
 * key given twice with different values becomes "", which no reader accepts: a conflicting
 * duplicate (say a forged second orderId) can only make the callback be ignored.
 */
export function requestParams(...sources: unknown[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const source of sources) {
    if (source === null || typeof source !== "object" || Array.isArray(source)) continue;
    for (const [key, raw] of Object.entries(source)) {
      for (const value of scalars(raw)) {
        params[key] = key in params && params[key] !== value ? "" : value;
      }
    }
  }
  return params;
}

function scalars(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(scalars);
  if (typeof value === "string") return [value];
  if (typeof value === "number" || typeof value === "boolean") return [String(value)];
  return [];
}
