/**
 * What an API key may do. Pure. `full`: everything; `read_only`: reads (GET, HEAD, OPTIONS);
 * `restricted`: reads and the write operations it names, each "<METHOD> <route>" as the API
 * declares it ("POST /v1/charges/:id/refund"; `{id}` is accepted for `:id`), so a script that only
 * refunds or only runs dunning holds a key that can do nothing else.
 */
export type ApiKeyScope = "full" | "read_only" | "restricted";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);
const OPERATION = /^(POST|PUT|PATCH|DELETE) (\/v1(?:\/[A-Za-z0-9_.:-]+)+)$/;

export class ApiKeyOperationError extends Error {
  override name = "ApiKeyOperationError";
  constructor(readonly operation: string) {
    super(
      `${JSON.stringify(operation)} is not an operation: write "<METHOD> <route>", e.g. "POST /v1/charges/:id/refund"`,
    );
  }
}

/** The canonical spelling of an operation, or an ApiKeyOperationError naming it. */
export function normaliseOperation(operation: string): string {
  const [method = "", ...rest] = operation.trim().split(/\s+/);
  const candidate = `${method.toUpperCase()} ${rest
    .join(" ")
    .replace(/\{([A-Za-z0-9_]+)\}/g, ":$1")
    .replace(/\/+$/, "")}`;
  if (!OPERATION.test(candidate)) throw new ApiKeyOperationError(operation);
  return candidate;
}

export function permits(
  key: { readonly scope: ApiKeyScope; readonly allowedOperations: readonly string[] | null },
  method: string,
  route: string,
): boolean {
  if (key.scope === "full" || READS.has(method)) return true;
  if (key.scope === "read_only") return false;
  return (key.allowedOperations ?? []).includes(`${method} ${route}`);
}
