import type { DateTime } from "luxon";
import type { EngineContext } from "../../context/index.js";
import { changePlan } from "../../plan-changes/index.js";
import { createPlan } from "../../plans/index.js";
import type { RunningSimulator } from "../../simulator/index.js";
import { createMeter, ingestUsage, usageBatchSchema } from "../../usage/index.js";
import { setUsagePrice } from "../../usage-billing/index.js";
import { CARDS, type CastMember, type Enrolled, enrollCast } from "./scenario.js";
import type { Moment } from "./time-machine.js";

/**
 * The demo's two customers whose amount varies from period to period, set up through the services
 * the API calls. Both plans are autosave: a recurring card token is charged the one amount it was
 * enrolled for, so it can price neither seats nor usage.
 * - Nadia's team takes the per-seat plan at 3 seats and grows to 5 on day 10 of the second month,
 *   prorated at once (plan-changes' changePlan, as POST /v1/subscriptions/:id/change-plan runs it);
 * - Khalid's plan prices the api_calls meter tiered. His app reports calls three times a month
 *   through ingestUsage (what POST /v1/usage runs), and one batch late, inside the grace; each
 *   period's usage is charged once the period closed, at its end plus USAGE_GRACE_HOURS.
 */

export const SEATS_PLAN = {
  name: "Team",
  price_model: "per_unit",
  amount: "25.00",
  currency: "QAR",
  interval: "month",
  billing_mode: "autosave",
} as const;
export const SEATS = { from: 3, to: 5 } as const;

export const API_PLAN = {
  name: "API",
  amount: "20.00",
  currency: "QAR",
  interval: "month",
  billing_mode: "autosave",
} as const;
export const API_CALLS = { code: "api_calls", name: "API calls", aggregation: "sum" } as const;
/** The first 1,000 calls of a period are free, every call after costs 0.05 QAR. */
export const API_CALLS_PRICE = {
  price_model: "tiered",
  tiers: [
    { up_to: 1000, unit_amount: "0" },
    { up_to: null, unit_amount: "0.05" },
  ],
} as const;
/** What Khalid's app reports in each month: so many calls, so many days after the month's billing run. */
export const REPORTS_BY_MONTH = [
  [
    { day: 2, calls: 400 },
    { day: 11, calls: 700 },
    { day: 23, calls: 500 },
  ],
  [
    { day: 2, calls: 900 },
    { day: 11, calls: 1200 },
    { day: 23, calls: 500 },
  ],
  [
    { day: 2, calls: 300 },
    { day: 11, calls: 600 },
    { day: 23, calls: 450 },
  ],
] as const;
/** First-month calls sent three hours into the second month, stamped before the first one ended. */
export const LATE_CALLS = 200;

export const SEATS_MEMBER: CastMember = {
  name: "Nadia",
  email: "nadia@example.qa",
  card: CARDS.approves,
  story: "4111…1111, 3 seats, then 5",
  quantity: SEATS.from,
};
export const USAGE_MEMBER: CastMember = {
  name: "Khalid",
  email: "khalid@example.qa",
  card: CARDS.approves,
  story: "4111…1111, pays for API calls",
};

/** The per-seat plan, the usage plan with its meter and usage price, and their two customers. */
export async function enrollMetered(ctx: EngineContext, simulator: RunningSimulator): Promise<Enrolled[]> {
  const seats = await createPlan(ctx, SEATS_PLAN, { actor: "demo" });
  const api = await createPlan(ctx, API_PLAN, { actor: "demo" });
  await createMeter(ctx, API_CALLS, { actor: "demo" });
  await setUsagePrice(ctx, { planId: api.id, meter: API_CALLS.code, input: API_CALLS_PRICE, actor: "demo" });
  return [
    ...(await enrollCast(ctx, simulator, seats.id, [SEATS_MEMBER])),
    ...(await enrollCast(ctx, simulator, api.id, [USAGE_MEMBER])),
  ];
}

/** Nadia's change of seats and Khalid's reports of usage, at instants after the first billing (`start`). */
export function meteredMoments(ctx: EngineContext, cast: readonly Enrolled[], start: DateTime): Moment[] {
  const member = (name: string) => {
    const found = cast.find((m) => m.name === name);
    if (!found) throw new Error(`no ${name} in the cast`);
    return found;
  };
  const nadia = member(SEATS_MEMBER.name);
  const khalid = member(USAGE_MEMBER.name);
  // Validated as the API validates a body, then ingested as the API ingests it.
  const report = (id: string, calls: number, timestamp?: DateTime) => async () => {
    const { events } = usageBatchSchema.parse({
      events: [
        {
          id,
          subscription_id: khalid.subscriptionId,
          meter: API_CALLS.code,
          quantity: calls,
          ...(timestamp ? { timestamp: timestamp.toUTC().toISO() } : {}),
        },
      ],
    });
    const [result] = await ingestUsage(ctx, events);
    if (result?.status !== "accepted") {
      throw new Error(`Khalid's usage ${id} was not accepted: ${JSON.stringify(result)}`);
    }
  };
  return [
    {
      at: start.plus({ months: 1, days: 10 }),
      what: `Nadia's team grows from ${SEATS.from} seats to ${SEATS.to}; the rest of the month's difference is charged now`,
      run: async () => {
        await changePlan(ctx, {
          subscriptionId: nadia.subscriptionId,
          quantity: SEATS.to,
          proration: "immediate_prorate",
          actor: "customer",
        });
      },
    },
    ...REPORTS_BY_MONTH.flatMap((reports, month) =>
      reports.map(({ day, calls }) => ({
        at: start.plus({ months: month, days: day }),
        what: `Khalid's app reports ${calls} API calls`,
        run: report(`calls-${month + 1}-${day}`, calls),
      })),
    ),
    {
      at: start.plus({ months: 1, hours: 3 }),
      what: `Khalid's app reports ${LATE_CALLS} more of last month's calls, late: the grace still takes them`,
      run: report("calls-1-late", LATE_CALLS, start.plus({ months: 1 }).minus({ minutes: 30 })),
    },
  ];
}
