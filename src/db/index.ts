export {
  type CreateDbOptions,
  createDb,
  type Db,
  type DbClient,
  type Schema,
  type Sql,
  type SqlRunner,
  type SqlTx,
  sqlOf,
  type Tx,
} from "./client.js";
export { pgError, SqlState, violates } from "./errors.js";
export {
  DatabaseUnreachableError,
  isMigrated,
  MIGRATIONS_FOLDER,
  type MigrateOptions,
  type MigrateResult,
  migrateDatabase,
} from "./migrate.js";
export { pgInstant, pgInstantOrNull, pgInteger, pgTimestamp } from "./values.js";
