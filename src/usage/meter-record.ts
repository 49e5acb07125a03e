import type { meters } from "../db/schema/index.js";
import type { MeterAggregation } from "./meter-input.js";

/** A meter as the services hand it out. */
export interface StoredMeter {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly aggregation: MeterAggregation;
  readonly createdAt: Date;
  /** Set once the meter takes no new events. */
  readonly archivedAt: Date | null;
}

export function toStoredMeter(row: typeof meters.$inferSelect): StoredMeter {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    aggregation: row.aggregation,
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
  };
}

/** A meter code that is already taken (codes are unique, archived meters' included). */
export class MeterExistsError extends Error {
  constructor(readonly code: string) {
    super(`a meter with code ${code} already exists`);
    this.name = "MeterExistsError";
  }
}
