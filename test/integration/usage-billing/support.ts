import { and, asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { chargeLines, charges } from "../../../src/db/schema/index.js";
import type { ApiHarness } from "../api/support.js";
import { eventually } from "../charging/fixtures.js";

/** What the usage-billing tests share: PUT (the harness's call knows GET, POST, DELETE), and reads. */

export function put(api: ApiHarness, url: string, body: unknown) {
  return api.app.inject({
    method: "PUT",
    url,
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

/** The subscription's charges of one kind, oldest period first. */
export function chargesOfKind(api: ApiHarness, subscriptionId: string, kind: "period" | "usage") {
  return api.h.ctx.db
    .select()
    .from(charges)
    .where(and(eq(charges.subscriptionId, subscriptionId), eq(charges.kind, kind)))
    .orderBy(asc(charges.periodStart));
}

/** Waits until the subscription's charges of that kind have these statuses. */
export function statusesOfKind(
  api: ApiHarness,
  subscriptionId: string,
  kind: "period" | "usage",
  statuses: string[],
) {
  return eventually(async () => {
    const rows = await chargesOfKind(api, subscriptionId, kind);
    expect(rows.map((row) => row.status)).toEqual(statuses);
    return rows;
  });
}

export function linesOf(api: ApiHarness, chargeId: string) {
  return api.h.ctx.db
    .select()
    .from(chargeLines)
    .where(eq(chargeLines.chargeId, chargeId))
    .orderBy(asc(chargeLines.position));
}

/** Sends usage events through POST /v1/usage and returns each one's status. */
export async function sendUsage(api: ApiHarness, events: Record<string, unknown>[]): Promise<string[]> {
  const reply = await api.call("POST", "/v1/usage", { body: { events } });
  expect(reply.statusCode, reply.body).toBe(200);
  return (reply.json() as { results: { status: string; reason?: string }[] }).results.map((result) =>
    result.status === "refused" ? `refused: ${result.reason}` : result.status,
  );
}
