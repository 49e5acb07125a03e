import postgres from "postgres";

/** SQLSTATE codes the engine reacts to; the schema's constraints raise the first five. */
export const SqlState = {
  uniqueViolation: "23505",
  deadlockDetected: "40P01",
  checkViolation: "23514",
  foreignKeyViolation: "23503",
  notNullViolation: "23502",
  /** Raised by the events append-only trigger. */
  restrictViolation: "23001",
  /** A value that is not one of an enum's labels, or not a uuid. */
  invalidTextRepresentation: "22P02",
} as const;

/**
 * The Postgres error behind `error`. drizzle wraps driver errors in a DrizzleQueryError whose
 * `cause` is the postgres.js PostgresError (with code, constraint_name, table_name), so the cause
 * chain is followed.
 */
export function pgError(error: unknown): postgres.PostgresError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof postgres.PostgresError) return current;
    current = current.cause;
  }
  return undefined;
}

/** True when `error` is a Postgres error with this SQLSTATE and, if given, this constraint. */
export function violates(error: unknown, code: string, constraint?: string): boolean {
  const pg = pgError(error);
  return pg?.code === code && (constraint === undefined || pg.constraint_name === constraint);
}
