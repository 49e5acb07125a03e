import type { EngineContext } from "../../context/index.js";
import {
  applyCoupon,
  archiveCoupon,
  couponInputSchema,
  createCoupon,
  getCoupon,
  listCoupons,
  removeDiscount,
} from "../../coupons/index.js";
import { notFound } from "../../problems/index.js";
import { findSubscription } from "../../resources/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";
import {
  applyDiscountBody,
  couponListQuery,
  couponPage,
  couponParams,
  couponSchema,
  presentCoupon,
} from "../schemas/coupons.js";
import { presentSubscription, subscriptionActionReplies } from "../schemas/subscriptions.js";

const RECURRING_LIMIT =
  "A subscription charged with a recurring card token (plan billing_mode recurring) is refused with 422 `coupon_needs_autosave`: " +
  "the gateway charges a recurring token the amount enrolled with it (GetnewPayment takes no amount), so only autosave cards can be charged a discounted amount.";

/** Coupons, and redeeming one on a subscription (its discount comes off each period's charge). */
export function couponRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/coupons",
    {
      schema: {
        tags: ["coupons"],
        summary: "Create a coupon",
        description:
          "percent_off (1-99, as the gateway's invoice discount allows) or amount_off with its currency (one of GATEWAY_CURRENCIES); " +
          "duration once, repeating (with duration_periods) or forever; optional max_redemptions and expires_at (billing clock). " +
          "The code is stored trimmed and upper-case; a code already taken is refused with 409 `coupon_exists`. Every offending field is listed in one 400.",
        headers: idempotencyHeaders,
        body: couponInputSchema({ currencies: ctx.config.GATEWAY_CURRENCIES }).in,
        response: {
          201: couponSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          409: problemReplies[409],
        },
      },
    },
    async (request, reply) => {
      const coupon = await createCoupon(ctx, request.body, { actor: actorOf(request) });
      return reply.code(201).send(presentCoupon(coupon));
    },
  );

  app.get(
    "/coupons",
    {
      schema: {
        tags: ["coupons"],
        summary: "List coupons, oldest first",
        querystring: couponListQuery,
        response: { 200: couponPage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const { limit, starting_after, include_archived } = request.query;
      const page = await listCoupons(ctx, {
        limit,
        after: starting_after,
        includeArchived: include_archived,
      });
      return { data: page.coupons.map(presentCoupon), has_more: page.nextCursor !== null };
    },
  );

  app.get(
    "/coupons/:id",
    {
      schema: {
        tags: ["coupons"],
        summary: "Get a coupon by id or code",
        params: couponParams,
        response: { 200: couponSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const coupon = await getCoupon(ctx, request.params.id);
      if (!coupon) throw notFound("coupon", request.params.id);
      return presentCoupon(coupon);
    },
  );

  app.post(
    "/coupons/:id/archive",
    {
      schema: {
        tags: ["coupons"],
        summary: "Archive a coupon (by id or code): it is redeemed no more",
        description:
          "Discounts already redeemed run their course. Archiving an archived coupon changes nothing.",
        params: couponParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: { 200: couponSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const coupon = await archiveCoupon(ctx, { idOrCode: request.params.id, actor: actorOf(request) });
      if (!coupon) throw notFound("coupon", request.params.id);
      return presentCoupon(coupon);
    },
  );

  app.post(
    "/subscriptions/:id/discount",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Redeem a coupon on a subscription",
        description:
          "The discount comes off each period's charge from the next one, for the coupon's duration. " +
          "An unknown code is a 422 `unknown_reference` naming `coupon`; an archived, expired, fully redeemed coupon or a fixed one in another currency is a 422 `coupon_archived`, `coupon_expired`, `coupon_exhausted` or `coupon_currency_mismatch`. " +
          "A canceled subscription is a 409 `subscription_canceled`; one that already has a discount a 409 `discount_exists` (remove it first). " +
          RECURRING_LIMIT,
        params: idParams,
        headers: idempotencyHeaders,
        body: applyDiscountBody,
        response: { ...subscriptionActionReplies, 400: problemReplies[400] },
      },
    },
    async (request) => {
      const { id } = request.params;
      await applyCoupon(ctx, { subscriptionId: id, code: request.body.coupon, actor: actorOf(request) });
      return presentSubscription(await findSubscription(ctx.db, id));
    },
  );

  app.delete(
    "/subscriptions/:id/discount",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Remove a subscription's discount",
        description:
          "Ends the live discount now: periods charged from now on are charged in full; the coupon's redemption is not given back. " +
          "A subscription without one is a 404 `no_discount`.",
        params: idParams,
        response: subscriptionActionReplies,
      },
    },
    async (request) => {
      const { id } = request.params;
      await removeDiscount(ctx, { subscriptionId: id, actor: actorOf(request) });
      return presentSubscription(await findSubscription(ctx.db, id));
    },
  );
}
