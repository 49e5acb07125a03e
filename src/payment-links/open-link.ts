import { chargeOrderId, isPaymentLinkSignature, paymentLinkUrl } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInteger, SqlState, violates } from "../db/index.js";
import { supersedeCheckouts } from "../enrollment/index.js";
import { recordEvents } from "../events/index.js";
import { type CheckoutOutcome, settleCheckout } from "./settle-checkout.js";

/**
 * Opening a payment link (GET, so a mail scanner's prefetch may do it too): never "uses up" the
 * link, and never takes money by itself. In order:
 * 1. the signature must be the charge's (charging/payment-link-url.ts), else the link is unknown;
 * 2. a charge no longer awaiting payment gets a page saying so (paid, or closed);
 * 3. the open checkout, if any, is asked about first (settle-checkout.ts): paid ends here; declined
 *    lets a new checkout follow; still pending and younger than PAYMENT_LINK_CHECKOUT_MINUTES is
 *    handed out again, so two tabs and a scanner share one checkout; older, or one that does not
 *    save the card when the customer now asks to (or the other way round), is superseded (and
 *    watched for a late payment, enrollment/supersede-checkouts.ts);
 * 4. otherwise a new attempt is recorded and committed (its orderId, `chg_<charge>_<n>`, as card
 *    attempts have) BEFORE v1 checkout is called for the charge's exact amount in the customer's
 *    language, returning to the link's own result page, saving the card when the customer asked
 *    (`saveCard`: v1 save_token; enrollment/save-link-card.ts). A failed call leaves no payable checkout
 *    (nobody holds its URL): the attempt is closed and the customer asked to try again later.
 */
export type LinkView =
  | { readonly kind: "not_found" }
  | { readonly kind: "checkout"; readonly url: string }
  | ({ readonly kind: "paid" | "closed" | "unavailable" | "declined" | "pending" } & LinkFacts);

export interface LinkFacts {
  readonly language: "en" | "ar";
  readonly amountMinor: number;
  readonly currency: string;
  readonly planName: string;
  /** The link itself, for "try again". */
  readonly link: string;
}

type Ctx = Pick<EngineContext, "db" | "clock" | "gateway" | "logger" | "config" | "vault" | "publicUrl">;

interface LinkRow {
  id: string;
  status: string;
  amount_minor: string;
  currency: string;
  attempt_count: number;
  subscription_id: string;
  email: string;
  name: string | null;
  phone: string | null;
  language: "en" | "ar";
  plan_name: string;
  attempt_id: string | null;
  order_id: string | null;
  attempt_number: number | null;
  checkout_url: string | null;
  save_card: boolean | null;
  attempt_age_seconds: string | null;
}

const ACTOR = "payment-links";
/** Two opens at once: the second waits this long, in steps, for the first one's checkout URL. */
const RACE_WAIT_STEPS = 50;
const RACE_WAIT_MS = 100;

export async function openPaymentLink(
  ctx: Ctx,
  chargeId: string,
  signature: string,
  options: { saveCard?: boolean } = {},
): Promise<LinkView> {
  const saveCard = options.saveCard === true;
  if (!isPaymentLinkSignature(ctx, chargeId, signature)) return { kind: "not_found" };
  for (let step = 0; step < RACE_WAIT_STEPS; step += 1) {
    const row = await loadLink(ctx, chargeId);
    if (!row) return { kind: "not_found" };
    const facts = factsOf(ctx, row);
    if (row.status === "paid") return { kind: "paid", ...facts };
    if (row.status !== "awaiting_payment") return { kind: "closed", ...facts };
    await ctx.db.$client`
      update payment_links set opened_at = coalesce(opened_at, ${ctx.clock.now().toUTC().toISO()}::timestamptz)
      where charge_id = ${chargeId}::uuid`;

    if (row.attempt_id !== null) {
      const reused = await reuseOrSettle(ctx, row, saveCard);
      if (reused.kind === "checkout") return reused;
      if (reused.kind === "paid" || reused.kind === "unavailable") return { kind: reused.kind, ...facts };
      if (reused.kind === "wait") {
        await new Promise((resolve) => setTimeout(resolve, RACE_WAIT_MS));
        continue;
      }
    }
    const opened = await openCheckout(ctx, row, facts, saveCard);
    if (opened !== "raced") return opened;
  }
  return { kind: "unavailable", ...factsOf(ctx, (await loadLink(ctx, chargeId))!) };
}

type Reuse = { kind: "checkout"; url: string } | { kind: "paid" | "unavailable" | "new" | "wait" };

async function reuseOrSettle(ctx: Ctx, row: LinkRow, saveCard: boolean): Promise<Reuse> {
  // Another open is still asking the gateway for this checkout's page.
  if (row.checkout_url === null) return { kind: "wait" };
  const attempt = {
    id: row.attempt_id!,
    chargeId: row.id,
    orderId: row.order_id!,
    attemptNumber: row.attempt_number!,
    saveCard: row.save_card === true,
  };
  const outcome: CheckoutOutcome = await settleCheckout(ctx, attempt);
  if (outcome === "unavailable") return { kind: "unavailable" };
  if (outcome === "declined") return { kind: "new" };
  if (outcome !== "pending") return { kind: "paid" };
  const fresh = pgInteger(row.attempt_age_seconds ?? "0") < ctx.config.PAYMENT_LINK_CHECKOUT_MINUTES * 60;
  if (fresh && attempt.saveCard === saveCard) return { kind: "checkout", url: row.checkout_url };
  await supersedeCheckouts(ctx, ctx.db.$client, { attemptId: attempt.id }, "superseded by a newer checkout");
  return { kind: "new" };
}

async function openCheckout(
  ctx: Ctx,
  row: LinkRow,
  facts: LinkFacts,
  saveCard: boolean,
): Promise<LinkView | "raced"> {
  const now = ctx.clock.now();
  const attemptNumber = row.attempt_count + 1;
  const orderId = chargeOrderId(row.id, attemptNumber);
  let attemptId: string;
  try {
    const recorded = await ctx.db.$client.begin(async (tx) => {
      const rows = await tx<{ id: string }[]>`
        with claimed as (
          update charges set attempt_count = attempt_count + 1
          where id = ${row.id}::uuid and status = 'awaiting_payment' and attempt_count = ${row.attempt_count}
          returning id
        )
        insert into charge_attempts (charge_id, order_id, attempt_number, status, channel, save_card, created_at)
        select id, ${orderId}, ${attemptNumber}, 'in_flight', 'checkout', ${saveCard}, ${now.toUTC().toISO()}::timestamptz
        from claimed
        returning id`;
      if (rows.length === 0) return null;
      await recordEvents(tx, [
        {
          type: "charge.attempt_started",
          actor: ACTOR,
          occurredAt: now,
          subscriptionId: row.subscription_id,
          chargeId: row.id,
          data: { attempt: attemptNumber, order_id: orderId, channel: "checkout", save_card: saveCard },
        },
      ]);
      return rows[0]!.id;
    });
    if (recorded === null) return "raced";
    attemptId = recorded;
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation)) return "raced";
    throw error;
  }

  const back = `${paymentLinkUrl(ctx, row.id)}/return`;
  try {
    const { checkoutUrl } = await ctx.gateway.v1.checkout({
      amount: { minor: facts.amountMinor, currency: facts.currency },
      orderId,
      client: {
        ...(row.name ? { name: row.name } : {}),
        email: row.email,
        ...(row.phone ? { phone: row.phone } : {}),
      },
      language: facts.language,
      successUrl: back,
      failureUrl: back,
      saveToken: saveCard,
      note: facts.planName.slice(0, 300),
    });
    await ctx.db
      .$client`update charge_attempts set checkout_url = ${checkoutUrl} where id = ${attemptId}::uuid`;
    return { kind: "checkout", url: checkoutUrl };
  } catch (error) {
    ctx.logger.warn({ err: error, chargeId: row.id, orderId }, "payment link: the checkout was not created");
    const why = `checkout not created: ${error instanceof Error ? error.message : String(error)}`.slice(
      0,
      500,
    );
    await ctx.db.$client`
      update charge_attempts set status = 'failed_permanently', decline_description = ${why},
        settled_at = ${now.toUTC().toISO()}::timestamptz
      where id = ${attemptId}::uuid and status = 'in_flight'`;
    return { kind: "unavailable", ...facts };
  }
}

/** What a link's pages show; null when the signature is not the charge's or it has no link. */
export async function paymentLinkFacts(
  ctx: Ctx,
  chargeId: string,
  signature: string,
): Promise<LinkFacts | null> {
  if (!isPaymentLinkSignature(ctx, chargeId, signature)) return null;
  const row = await loadLink(ctx, chargeId);
  return row ? factsOf(ctx, row) : null;
}

async function loadLink(ctx: Ctx, chargeId: string): Promise<LinkRow | undefined> {
  const now = ctx.clock.now().toUTC().toISO();
  const [row] = await ctx.db.$client<LinkRow[]>`
    select c.id, c.status::text as status, c.amount_minor::text, c.currency, c.attempt_count,
      c.subscription_id, cu.email, cu.name, cu.phone, cu.language, p.name as plan_name,
      a.id as attempt_id, a.order_id, a.attempt_number, a.checkout_url, a.save_card,
      extract(epoch from ${now}::timestamptz - a.created_at)::bigint::text as attempt_age_seconds
    from charges c
    join subscriptions s on s.id = c.subscription_id
    join customers cu on cu.id = s.customer_id
    join plans p on p.id = c.plan_id
    join payment_links l on l.charge_id = c.id
    left join charge_attempts a on a.charge_id = c.id and a.channel = 'checkout' and a.status = 'in_flight'
    where c.id = ${chargeId}::uuid`;
  return row;
}

function factsOf(ctx: Ctx, row: LinkRow): LinkFacts {
  return {
    language: row.language,
    amountMinor: pgInteger(row.amount_minor),
    currency: row.currency,
    planName: row.plan_name,
    link: paymentLinkUrl(ctx, row.id),
  };
}
