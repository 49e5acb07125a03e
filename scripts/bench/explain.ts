/**
 * What each statement of a piece of code costs (scripts/bench-ops.ts): the code runs once on a
 * client that records every statement as sent (postgres.js `debug`), then each distinct statement
 * runs again, with the same parameters, under EXPLAIN (ANALYZE, BUFFERS), summarised as its scan
 * nodes: a Seq Scan of a big table, or an index read for far more rows than it returns, shows.
 */
import postgres, { type Sql } from "postgres";
import { databaseName } from "../../src/db/url.js";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Heap Fetches"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

export interface Scan {
  /** Seq Scan, Index Only Scan, Bitmap Heap Scan, … */
  type: string;
  /** The index, or the table for a scan of the table itself. */
  on: string;
  /** Rows the node returned over all its loops. */
  rows: number;
  loops: number;
  heapFetches: number;
}

export interface Explained {
  /** The code that ran the statement. */
  label: string;
  /** Its first table, to tell statements apart. */
  table: string;
  ms: number;
  rowsOut: number;
  buffersHit: number;
  buffersRead: number;
  scans: Scan[];
}

function scansOf(node: PlanNode, into: Scan[] = []): Scan[] {
  if (node["Node Type"].includes("Scan")) {
    into.push({
      type: node["Node Type"],
      on: node["Index Name"] ?? node["Relation Name"] ?? "",
      rows: node["Actual Rows"] * node["Actual Loops"],
      loops: node["Actual Loops"],
      heapFetches: node["Heap Fetches"] ?? 0,
    });
  }
  for (const child of node.Plans ?? []) scansOf(child, into);
  return into;
}

function firstTable(node: PlanNode): string | undefined {
  return node["Relation Name"] ?? node.Plans?.map(firstTable).find((t) => t !== undefined);
}

/** Runs each piece of code once, recording its statements, then explains every distinct one. */
export async function explainEach(
  databaseUrl: string,
  pieces: readonly { label: string; run: (sql: Sql) => Promise<unknown> }[],
): Promise<Explained[]> {
  const captured: { label: string; query: string; params: unknown[] }[] = [];
  let label = "";
  const sql = postgres(databaseUrl, {
    database: databaseName(databaseUrl),
    max: 1,
    onnotice: () => {},
    debug: (_connection, query, params) => {
      // Not postgres.js's own read of the array types on connecting, nor a statement seen before.
      if (!label || query.includes("pg_catalog.pg_type") || captured.some((c) => c.query === query)) return;
      captured.push({ label, query, params });
    },
  });
  try {
    for (const piece of pieces) {
      label = piece.label;
      await piece.run(sql);
    }
    label = "";
    const explained: Explained[] = [];
    for (const statement of captured) {
      const [row] = await sql.unsafe<{ "QUERY PLAN": { Plan: PlanNode; "Execution Time": number }[] }[]>(
        `explain (analyze, buffers, format json) ${statement.query}`,
        statement.params as postgres.ParameterOrJSON<never>[],
      );
      const plan = row?.["QUERY PLAN"][0];
      if (!plan) continue;
      explained.push({
        label: statement.label,
        table: firstTable(plan.Plan) ?? "-",
        ms: plan["Execution Time"],
        rowsOut: plan.Plan["Actual Rows"],
        buffersHit: plan.Plan["Shared Hit Blocks"] ?? 0,
        buffersRead: plan.Plan["Shared Read Blocks"] ?? 0,
        scans: scansOf(plan.Plan),
      });
    }
    return explained;
  } finally {
    await sql.end();
  }
}
