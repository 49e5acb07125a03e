/**
 * The chaos suite's result table, one row per scenario, as Markdown so it can be pasted into the
 * README as printed. A row's verdict is FAIL when money is wrong or an expectation failed.
 */
import type { Measurement } from "./measure.js";

export interface Row {
  readonly scenario: string;
  readonly measurement: Measurement | undefined;
  readonly settleSeconds: number | undefined;
  readonly verdict: "ok" | "FAIL";
}

const HEADER = [
  "scenario",
  "expected",
  "paid in database",
  "paid in ledger",
  "double charges",
  "duplicates refunded",
  "lost periods",
  "held for review",
  "breaker",
  "settled in",
  "result",
];

export function formatTable(rows: readonly Row[]): string {
  const cells = rows.map(({ scenario, measurement: m, settleSeconds, verdict }) => [
    scenario,
    ...(m === undefined
      ? ["—", "—", "—", "—", "—", "—", "—", "—"]
      : [
          String(m.expected),
          String(m.paidDb),
          String(m.paidLedger),
          String(m.doubleCharges),
          `${m.duplicatesRefunded}/${m.duplicatesDetected}`,
          String(m.lost),
          String(m.heldForReview),
          m.breaker,
        ]),
    settleSeconds === undefined ? "—" : `${settleSeconds.toFixed(1)} s`,
    verdict,
  ]);
  const widths = HEADER.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(HEADER), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}
