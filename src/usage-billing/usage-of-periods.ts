import type { Db, SqlRunner } from "../db/index.js";
import { type UsagePeriod, usageForPeriods } from "../usage/index.js";

/**
 * Rule: the usage of each of these periods, in their order, by meter code, added up by the usage
 * service's one set-based query (usage/aggregate.ts), so a usage charge and its preview count
 * exactly as the metering does. usageForPeriods takes each subscription once per call, so periods
 * of a subscription billed together (a tick catching up) go in rounds: one query per round.
 */
export async function usageOfPeriods(
  sql: SqlRunner,
  periods: readonly UsagePeriod[],
): Promise<Map<string, number>[]> {
  const rounds: { index: number; period: UsagePeriod }[][] = [];
  const seen = new Map<string, number>();
  for (const [index, period] of periods.entries()) {
    const id = period.subscriptionId.toLowerCase();
    const round = seen.get(id) ?? 0;
    seen.set(id, round + 1);
    const members = rounds[round] ?? [];
    members.push({ index, period });
    rounds[round] = members;
  }
  // usageForPeriods reads through db.$client alone: this runs it on the caller's connection (a
  // transaction's, or the pool).
  const db = { $client: sql } as unknown as Db;
  const usage: Map<string, number>[] = periods.map(() => new Map());
  for (const round of rounds) {
    const found = await usageForPeriods(
      db,
      round.map(({ period }) => period),
    );
    for (const { index, period } of round) {
      usage[index] = found.get(period.subscriptionId.toLowerCase()) ?? new Map();
    }
  }
  return usage;
}
