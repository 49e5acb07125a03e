import type { customers } from "../db/schema/index.js";

export type Customer = typeof customers.$inferSelect;
