/**
 * A request a service refuses, with nothing written: `code` is stable for the API and the CLI to
 * map, the message says what to do instead, and `details` are the facts a caller acts on (ids,
 * statuses), snake_case as in API bodies. Each service names its own subclass and codes.
 */
export class Refusal<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
