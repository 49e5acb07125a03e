import postgres from "postgres";
import { onTestFinished } from "vitest";
import type { Db } from "../../src/db/index.js";
import type { EngineHarness } from "./engine.js";

/**
 * The harness's engine context on a pool of its own that counts the statements it sends, for
 * tests that hold a step to a number of round trips. postgres.js calls `debug` once per statement
 * sent; with fetch_types off, connecting sends none of its own. The pool ends with the test.
 */
export function countingStatements(h: EngineHarness, max = 1) {
  const count = { statements: 0 };
  const sql = postgres(h.database.url, {
    max,
    fetch_types: false,
    debug: () => {
      count.statements += 1;
    },
  });
  onTestFinished(() => sql.end());
  return { ctx: { ...h.ctx, db: { $client: sql } as unknown as Db }, count };
}
