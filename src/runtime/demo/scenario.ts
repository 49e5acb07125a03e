import type { DateTime } from "luxon";
import type { EngineContext } from "../../context/index.js";
import { createCustomer } from "../../customers/index.js";
import { enroll, startReEnrollment, subscribe } from "../../enrollment/index.js";
import { changePlan } from "../../plan-changes/index.js";
import type { RunningSimulator } from "../../simulator/index.js";
import { payCheckout, payLinksOf } from "./checkout.js";
import { cancelThroughPortal } from "./portal-visit.js";
import type { Moment } from "./time-machine.js";

/**
 * The demo's cast. Every customer but one saves a simulated card through the hosted checkout (as a
 * browser would: /_sim/pay, then the redirect into our server); the card decides what later
 * collections do (src/simulator/README.md). The one who pays by link holds a Qatar debit card,
 * which the gateway will not save for recurring payments: she subscribes without a card and pays
 * each month's link through the hosted checkout. Scripted moments are what people do between
 * billing runs.
 */

export const CARDS = {
  approves: "4111111111111111",
  alwaysDeclines: "4000000000000341",
  declinesTwice: "4000000000000002",
  approvesTwiceThenDeclines: "4000000000000077",
  /** Pays one-time checkouts; refuses to be saved for recurring payments. */
  qatarDebit: "4847000000000009",
} as const;

export interface CastMember {
  name: string;
  email: string;
  card: string;
  /** What the summary says about the card. */
  story: string;
  /** A coupon code redeemed at enrolment. */
  coupon?: string;
  /** Seats subscribed at enrolment, on a per-seat plan; 1 unless said. */
  quantity?: number;
  /** The customer's language for messages and documents (English unless said). */
  language?: "en" | "ar";
  /**
   * Subscribes by payment link (collection method send_payment_link) instead of saving the card:
   * no checkout at enrolment, and each month's link is paid with the card.
   */
  byLink?: boolean;
}

/** The demo's coupon: 20% off the first two months. */
export const WELCOME_COUPON = {
  code: "WELCOME20",
  name: "20% off two months",
  percent_off: 20,
  duration: "repeating",
  duration_periods: 2,
} as const;

export const CAST: readonly CastMember[] = [
  { name: "Aisha", email: "aisha@example.qa", card: CARDS.approves, story: "4111…1111, approves" },
  { name: "Badr", email: "badr@example.qa", card: CARDS.alwaysDeclines, story: "…0341, insufficient funds" },
  { name: "Carla", email: "carla@example.qa", card: CARDS.declinesTwice, story: "…0002, declines twice" },
  { name: "Dana", email: "dana@example.qa", card: CARDS.alwaysDeclines, story: "…0341, then a new 4111" },
  {
    name: "Eve",
    email: "eve@example.qa",
    card: CARDS.approvesTwiceThenDeclines,
    story: "…0077, fails from month 3",
  },
  {
    name: "Omar",
    email: "omar@example.qa",
    card: CARDS.approves,
    story: "4111…1111, cancels in the portal",
    language: "ar",
  },
  {
    name: "Farah",
    email: "farah@example.qa",
    card: CARDS.approves,
    story: "4111…1111, coupon WELCOME20",
    coupon: WELCOME_COUPON.code,
  },
  {
    name: "Hessa",
    email: "hessa@example.qa",
    card: CARDS.qatarDebit,
    story: "4847…0009 Qatar debit, pays by link",
    byLink: true,
    language: "ar",
  },
];

export interface Enrolled extends CastMember {
  customerId: string;
  subscriptionId: string;
}

export { payCheckout };

/**
 * Enrols each member in turn: a customer, an enrolment, and the checkout paid with the member's
 * card; a member who pays by link is subscribed by link at once, with no checkout.
 */
export async function enrollCast(
  ctx: EngineContext,
  simulator: RunningSimulator,
  planId: string,
  members: readonly CastMember[] = CAST,
): Promise<Enrolled[]> {
  const enrolled: Enrolled[] = [];
  for (const member of members) {
    const { customer } = await createCustomer(
      ctx,
      { email: member.email, name: member.name, language: member.language ?? "en" },
      { actor: "demo" },
    );
    const input = {
      customerId: customer.id,
      planId,
      actor: "demo",
      ...(member.coupon ? { coupon: member.coupon } : {}),
      ...(member.quantity ? { quantity: member.quantity } : {}),
    };
    if (member.byLink) {
      const started = await subscribe(ctx, { ...input, collectionMethod: "send_payment_link" });
      enrolled.push({ ...member, customerId: customer.id, subscriptionId: started.subscriptionId });
      continue;
    }
    const started = await enroll(ctx, input);
    await payCheckout(simulator, started.checkoutUrl, member.card, member.name);
    enrolled.push({ ...member, customerId: customer.id, subscriptionId: started.subscriptionId });
  }
  return enrolled;
}

/**
 * What people do, at instants relative to the first billing (`start`):
 * - Carla's card declines twice ("Do not honour", retryable); dunning's own retries recover it;
 * - Dana, asked to update her card, saves a new one on day 2; collection resumes on it;
 * - Aisha upgrades to Pro Plus on day 10: the rest of the month's difference is charged at once;
 * - Omar cancels in the customer portal in the second month, at the end of the period he paid for;
 * - whoever pays by link opens the month's link two hours after each of the `months` billing runs
 *   and pays it with the debit card through the hosted checkout, then comes back to our page.
 */
export function moments(
  ctx: EngineContext,
  simulator: RunningSimulator,
  cast: Enrolled[],
  start: DateTime,
  upgradePlanId: string,
  months: number,
): Moment[] {
  const member = (name: string) => {
    const found = cast.find((m) => m.name === name);
    if (!found) throw new Error(`no ${name} in the cast`);
    return found;
  };
  const dana = member("Dana");
  const omar = member("Omar");
  const aisha = member("Aisha");
  return [
    {
      at: start.plus({ days: 2, hours: 3 }),
      what: "Dana saves a new card (4111…1111)",
      run: async () => {
        const again = await startReEnrollment(ctx, {
          subscriptionId: dana.subscriptionId,
          actor: "customer",
        });
        await payCheckout(simulator, again.checkoutUrl, CARDS.approves, dana.name);
      },
    },
    {
      at: start.plus({ days: 10 }),
      what: "Aisha upgrades to Pro Plus; the rest of the month's difference is charged now",
      run: async () => {
        await changePlan(ctx, {
          subscriptionId: aisha.subscriptionId,
          planId: upgradePlanId,
          proration: "immediate_prorate",
          actor: "customer",
        });
      },
    },
    {
      at: start.plus({ months: 1, days: 5 }),
      what: "Omar cancels in the customer portal, at the end of the month he paid for",
      run: () => cancelThroughPortal(ctx, omar.customerId, omar.subscriptionId),
    },
    ...cast
      .filter((payer) => payer.byLink)
      .flatMap((payer) =>
        Array.from({ length: months }, (_, month) => ({
          at: start.plus({ months: month, hours: 2 }),
          what: `${payer.name} opens this month's payment link and pays it by debit card`,
          run: async () => {
            const paid = await payLinksOf(ctx, simulator, payer);
            if (paid === 0) throw new Error(`${payer.name} had no payment link waiting to be paid`);
          },
        })),
      ),
  ];
}
