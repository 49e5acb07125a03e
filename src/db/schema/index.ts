/**
 * The database schema: every table, enum and relation. drizzle-kit reads this file to generate
 * migrations (drizzle.config.ts), and createDb() hands it to drizzle for typed queries.
 */

export * from "./addons.js";
export * from "./api.js";
export * from "./billing.js";
export * from "./breaker.js";
export * from "./catalog.js";
export * from "./changes.js";
export * from "./clock.js";
export * from "./documents.js";
export * from "./enums.js";
export * from "./events.js";
export * from "./messages.js";
export * from "./ops.js";
export * from "./payment-links.js";
export * from "./relations.js";
export * from "./subscriptions.js";
export * from "./usage.js";
export * from "./usage-prices.js";
