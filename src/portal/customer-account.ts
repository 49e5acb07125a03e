import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { ChargeRefund, CollectionMethod, IntervalUnit, SubscriptionState } from "../billing/index.js";
import { paymentLinkUrl } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import {
  type DocumentLinks,
  documentLinks,
  documentsOfCharges,
  type IssuedDocument,
} from "../customer-documents/index.js";
import {
  charges,
  invoices,
  paymentLinks,
  paymentMethods,
  planChanges,
  plans,
  subscriptions,
} from "../db/schema/index.js";
import { periodPriceMinor } from "../pricing/index.js";
import { chargeRefunds } from "../refunds/index.js";
import { type AccountAddon, accountAddons } from "./account-addons.js";
import { type AccountUsage, accountUsage } from "./account-usage.js";

const nextPlan = alias(plans, "next_plan");

/**
 * What the portal shows a customer: their subscriptions (with plan, card, how they pay, add-ons and
 * usage so far), the charges waiting for them to pay by link, their latest charges (with their
 * refunds, receipts and credit notes) and invoices.
 * Read only, always for one customer id: the session's, never one from the request.
 */

export interface AccountSubscription {
  id: string;
  status: SubscriptionState;
  planId: string;
  planName: string;
  /** One period at the subscription's quantity, before discount and credit. */
  amountMinor: number;
  /** Units of the plan (seats), and whether its price follows them (not flat). */
  quantity: number;
  priceByQuantity: boolean;
  currency: string;
  intervalUnit: IntervalUnit;
  intervalCount: number;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  nextBillingAt: Date | null;
  trialEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  /** By its saved card, or by a payment link for each charge (billing/payment-link.ts). */
  collectionMethod: CollectionMethod;
  /** The gateway does not tell a checkout's card digits: only imported cards carry them. */
  cardLast4: string | null;
  cardExpiry: string | null;
  /** When the current card was saved; null when there is none. */
  cardSavedAt: Date | null;
  cardKind: "recurring" | "autosave" | null;
  /** What a recurring card token was enrolled for, the only amount it pays. */
  cardAmountMinor: number | null;
  /** A plan change scheduled for the period's end: the new plan's name, and when. */
  scheduledPlanName: string | null;
  scheduledPlanAt: Date | null;
}

/** A subscription as the account page shows it. */
export interface AccountSubscriptionDetail extends AccountSubscription {
  addons: AccountAddon[];
  /** Null when no plan prices its current period's usage (account-usage.ts). */
  usage: AccountUsage | null;
}

export interface AccountCharge {
  id: string;
  subscriptionId: string;
  planName: string;
  periodStart: Date;
  amountMinor: number;
  currency: string;
  status: string;
  paidAt: Date | null;
  /** A refunded charge stays paid; this says whether its money went back (billing/refund-state.ts). */
  refund: ChargeRefund;
  /** Its receipt, once paid, with the signed links its message carried. */
  receipt: AccountDocument | null;
  /** The credit notes of its refunds the gateway accepted. */
  creditNotes: AccountDocument[];
}

/** A receipt or a credit note: its number, and the page and PDF its signed links open. */
export interface AccountDocument {
  number: string;
  links: DocumentLinks;
}

/**
 * A charge waiting for the customer to pay it through its payment link (status awaiting_payment):
 * every one of them, oldest first, whatever the recent charges list shows.
 */
export interface AccountDueCharge {
  id: string;
  subscriptionId: string;
  planName: string;
  periodStart: Date;
  periodEnd: Date;
  amountMinor: number;
  currency: string;
  /** When the link first went out. */
  sentAt: Date;
  /** The charge's own signed payment link (charging/payment-link-url.ts): GET it to pay. */
  payUrl: string;
}

export interface AccountInvoice {
  number: string | null;
  link: string | null;
  status: string;
  amountMinor: number;
  currency: string;
  createdAt: Date;
}

export interface CustomerAccount {
  subscriptions: AccountSubscriptionDetail[];
  due: AccountDueCharge[];
  charges: AccountCharge[];
  invoices: AccountInvoice[];
}

const RECENT = 12;

/**
 * The customer's subscriptions with plan and card, newest first; only the one with `subscriptionId`
 * when given (none when it is not theirs).
 */
export async function accountSubscriptions(
  ctx: Pick<EngineContext, "db">,
  customerId: string,
  subscriptionId?: string,
): Promise<AccountSubscription[]> {
  const rows = await ctx.db
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      planId: plans.id,
      planName: plans.name,
      planAmountMinor: plans.amountMinor,
      priceModel: plans.priceModel,
      tiers: plans.tiers,
      packageSize: plans.packageSize,
      quantity: subscriptions.quantity,
      currency: plans.currency,
      intervalUnit: plans.intervalUnit,
      intervalCount: plans.intervalCount,
      currentPeriodStart: subscriptions.currentPeriodStart,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      nextBillingAt: subscriptions.nextBillingAt,
      trialEnd: subscriptions.trialEnd,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      canceledAt: subscriptions.canceledAt,
      collectionMethod: subscriptions.collectionMethod,
      cardLast4: paymentMethods.cardLast4,
      cardExpiry: paymentMethods.cardExpiryMonth,
      cardSavedAt: paymentMethods.issuedAt,
      cardKind: paymentMethods.kind,
      cardAmountMinor: paymentMethods.amountMinor,
      scheduledPlanName: nextPlan.name,
      scheduledPlanAt: planChanges.effectiveAt,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .leftJoin(
      planChanges,
      and(eq(planChanges.subscriptionId, subscriptions.id), eq(planChanges.status, "scheduled")),
    )
    .leftJoin(nextPlan, eq(nextPlan.id, planChanges.toPlanId))
    .where(
      and(
        eq(subscriptions.customerId, customerId),
        subscriptionId === undefined ? undefined : eq(subscriptions.id, subscriptionId),
      ),
    )
    .orderBy(desc(subscriptions.createdAt));
  return rows.map(({ planAmountMinor, priceModel, tiers, packageSize, ...row }) => ({
    ...row,
    amountMinor: periodPriceMinor(
      { priceModel, amountMinor: planAmountMinor, tiers, packageSize },
      row.quantity,
    ),
    priceByQuantity: priceModel !== "flat",
  }));
}

export async function customerAccount(
  ctx: Pick<EngineContext, "db" | "vault" | "publicUrl" | "config">,
  customerId: string,
): Promise<CustomerAccount> {
  const { db } = ctx;
  const subscriptionRows = await accountSubscriptions(ctx, customerId);
  const ids = subscriptionRows.map((row) => row.id);
  if (ids.length === 0) return { subscriptions: [], due: [], charges: [], invoices: [] };
  const [addonsOf, usageOf, dueRows, chargeRows, invoiceRows] = await Promise.all([
    accountAddons(ctx, ids),
    accountUsage(ctx, subscriptionRows),
    db
      .select({
        id: charges.id,
        subscriptionId: charges.subscriptionId,
        planName: plans.name,
        periodStart: charges.periodStart,
        periodEnd: charges.periodEnd,
        amountMinor: charges.amountMinor,
        currency: charges.currency,
        sentAt: paymentLinks.sentAt,
      })
      .from(charges)
      .innerJoin(paymentLinks, eq(paymentLinks.chargeId, charges.id))
      .innerJoin(plans, eq(plans.id, charges.planId))
      .where(and(inArray(charges.subscriptionId, ids), eq(charges.status, "awaiting_payment")))
      .orderBy(asc(charges.periodStart), asc(charges.createdAt)),
    db
      .select({
        id: charges.id,
        subscriptionId: charges.subscriptionId,
        planName: plans.name,
        periodStart: charges.periodStart,
        amountMinor: charges.amountMinor,
        currency: charges.currency,
        status: charges.status,
        paidAt: charges.paidAt,
      })
      .from(charges)
      .innerJoin(plans, eq(plans.id, charges.planId))
      .where(inArray(charges.subscriptionId, ids))
      .orderBy(desc(charges.periodStart), desc(charges.createdAt))
      .limit(RECENT),
    db
      .select({
        number: invoices.number,
        link: invoices.link,
        status: invoices.status,
        amountMinor: invoices.amountMinor,
        currency: invoices.currency,
        createdAt: invoices.createdAt,
      })
      .from(invoices)
      .innerJoin(charges, eq(charges.id, invoices.chargeId))
      .where(inArray(charges.subscriptionId, ids))
      .orderBy(desc(invoices.createdAt))
      .limit(RECENT),
  ]);
  const chargeIds = chargeRows.map((row) => row.id);
  const [refundOf, documentsOf] = await Promise.all([
    chargeRefunds(db, chargeIds),
    documentsOfCharges(db, chargeIds),
  ]);
  const linked = (document: IssuedDocument): AccountDocument => ({
    number: document.number,
    links: documentLinks(ctx, document),
  });
  const withDocuments = (id: string) => {
    const { receipt, creditNotes } = documentsOf(id);
    return { receipt: receipt && linked(receipt), creditNotes: creditNotes.map(linked) };
  };
  return {
    subscriptions: subscriptionRows.map((row) => ({
      ...row,
      addons: addonsOf.get(row.id) ?? [],
      usage: usageOf.get(row.id) ?? null,
    })),
    due: dueRows.map((row) => ({ ...row, payUrl: paymentLinkUrl(ctx, row.id) })),
    charges: chargeRows.map((row) => ({ ...row, refund: refundOf(row.id), ...withDocuments(row.id) })),
    invoices: invoiceRows,
  };
}
