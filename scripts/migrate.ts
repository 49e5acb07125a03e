import { migrateDatabase } from "../src/db/migrate.js";
import { createLogger } from "../src/logger/index.js";

/** `npm run migrate`: creates the database if needed and applies pending migrations. */
const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/billing";
const logger = createLogger({ name: "migrate", level: process.env.LOG_LEVEL ?? "info" });

try {
  await migrateDatabase(url, { logger });
} catch (error) {
  logger.error({ err: error }, "migration failed");
  process.exitCode = 1;
}
