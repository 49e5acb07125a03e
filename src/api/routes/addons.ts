import {
  addonInputSchema,
  archiveAddon,
  createAddon,
  getAddon,
  listAddons,
  listSubscriptionAddons,
  removeSubscriptionAddon,
  setSubscriptionAddon,
} from "../../addons/index.js";
import type { EngineContext } from "../../context/index.js";
import { notFound } from "../../problems/index.js";
import { type ApiApp, actorOf } from "../context.js";
import { idempotencyHeaders } from "../idempotency.js";
import {
  addonListQuery,
  addonPage,
  addonParams,
  addonSchema,
  presentAddon,
  presentSetResult,
  presentSubscriptionAddon,
  setSubscriptionAddonBody,
  setSubscriptionAddonReply,
  subscriptionAddonList,
  subscriptionAddonParams,
  subscriptionAddonSchema,
} from "../schemas/addons.js";
import { emptyBody, idParams, problemReplies } from "../schemas/common.js";

const NEXT_PERIOD =
  "Add-ons take effect from the next period charged, each as a line of its own on the period's charge: nothing is prorated or charged now, and the periods already charged keep what they had.";

const REFUSALS =
  "Only a trialing or active subscription changes its add-ons: a past_due one is a 409 `subscription_past_due` (its unpaid charge is paid first), a pending, paused, unpaid or canceled one a 409 `subscription_not_changeable`. ";

/** The add-on catalogue, and the add-ons a subscription carries (docs/pricing.md, Add-ons). */
export function addonRoutes(app: ApiApp, ctx: EngineContext): void {
  app.post(
    "/addons",
    {
      schema: {
        tags: ["addons"],
        summary: "Create an add-on",
        description:
          "A recurring price sold beside a plan, billed each period of whatever plan it is on (so it has no interval). " +
          "The code is taken exactly as sent: 1-64 of a-z, 0-9, _, . and -, starting with a letter or a digit; a code already taken (archived add-ons' too) is a 409 `addon_exists`. " +
          "The currency must be one the gateway account takes (GATEWAY_CURRENCIES). The price is a plan's: `price_model` (default flat) with `amount` (flat, per_unit, package), `tiers` (tiered, volume) and `package_size` (package), amounts as decimal strings with at most the currency's decimals. " +
          "Every offending field is listed in one 400.",
        headers: idempotencyHeaders,
        body: addonInputSchema({ currencies: ctx.config.GATEWAY_CURRENCIES }).in,
        response: {
          201: addonSchema,
          400: problemReplies[400],
          401: problemReplies[401],
          409: problemReplies[409],
        },
      },
    },
    async (request, reply) => {
      const addon = await createAddon(ctx, request.body, { actor: actorOf(request) });
      return reply.code(201).send(presentAddon(addon));
    },
  );

  app.get(
    "/addons",
    {
      schema: {
        tags: ["addons"],
        summary: "List add-ons, oldest first",
        description: "Archived add-ons are left out unless `archived=true`.",
        querystring: addonListQuery,
        response: { 200: addonPage, 400: problemReplies[400], 401: problemReplies[401] },
      },
    },
    async (request) => {
      const { limit, starting_after, archived } = request.query;
      const page = await listAddons(ctx, { limit, after: starting_after, includeArchived: archived });
      return { data: page.addons.map(presentAddon), has_more: page.nextCursor !== null };
    },
  );

  app.get(
    "/addons/:code",
    {
      schema: {
        tags: ["addons"],
        summary: "Get an add-on by its code (or id)",
        params: addonParams,
        response: { 200: addonSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const addon = await getAddon(ctx, request.params.code);
      if (!addon) throw notFound("addon", request.params.code);
      return presentAddon(addon);
    },
  );

  app.post(
    "/addons/:code/archive",
    {
      schema: {
        tags: ["addons"],
        summary: "Archive an add-on: it is attached to nothing new",
        description:
          "Subscriptions that carry it keep it: it is still billed, its quantity may change and it may be removed. Archiving an archived add-on changes nothing.",
        params: addonParams,
        headers: idempotencyHeaders,
        body: emptyBody,
        response: { 200: addonSchema, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const addon = await archiveAddon(ctx, { idOrCode: request.params.code, actor: actorOf(request) });
      if (!addon) throw notFound("addon", request.params.code);
      return presentAddon(addon);
    },
  );

  app.get(
    "/subscriptions/:id/addons",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "List the add-ons a subscription carries",
        description:
          "Oldest first, the order its charge bills them in, each with its quantity, its price as the add-on's and `period_amount`, one period at that quantity.",
        params: idParams,
        response: { 200: subscriptionAddonList, 401: problemReplies[401], 404: problemReplies[404] },
      },
    },
    async (request) => {
      const rows = await listSubscriptionAddons(ctx, request.params.id);
      if (!rows) throw notFound("subscription", request.params.id);
      return { data: rows.map(presentSubscriptionAddon) };
    },
  );

  app.put(
    "/subscriptions/:id/addons/:code",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Attach an add-on to a subscription, or change its quantity",
        description: `${NEXT_PERIOD} A new quantity ends the add-on's row and starts another, so its history stays. The same quantity as now is answered as it is (\`change: unchanged\`), with nothing written. ${REFUSALS}An unknown add-on is a 404; an archived one a 422 \`addon_archived\` (unless the subscription already carries it); one priced in another currency than the subscription's plan a 422 \`addon_currency_mismatch\`; a quantity whose period price cannot be billed exactly a 422 \`quantity_too_large\`. A subscription charged through a recurring card token (its card, or before one is saved its plan's billing_mode recurring) is a 422 \`card_amount_fixed\`: the gateway charges such a token the fixed amount it was enrolled for, so it needs an autosave card or payment links (collection_method send_payment_link). Recorded as \`subscription.addon_added\` or \`subscription.addon_updated\`.`,
        params: subscriptionAddonParams,
        body: setSubscriptionAddonBody,
        response: {
          200: setSubscriptionAddonReply,
          400: problemReplies[400],
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
          422: problemReplies[422],
        },
      },
    },
    async (request) => {
      const { id, code } = request.params;
      const result = await setSubscriptionAddon(ctx, {
        subscriptionId: id,
        addon: code,
        quantity: request.body.quantity,
        actor: actorOf(request),
      });
      return presentSetResult(result);
    },
  );

  app.delete(
    "/subscriptions/:id/addons/:code",
    {
      schema: {
        tags: ["subscriptions"],
        summary: "Take an add-on off a subscription",
        description: `From the next period charged it is no longer billed; nothing is prorated or refunded. ${REFUSALS}A subscription that does not carry it is a 404 \`addon_not_attached\`. Recorded as \`subscription.addon_removed\`; answered with the row as it ended.`,
        params: subscriptionAddonParams,
        response: {
          200: subscriptionAddonSchema,
          401: problemReplies[401],
          404: problemReplies[404],
          409: problemReplies[409],
        },
      },
    },
    async (request) => {
      const { id, code } = request.params;
      const removed = await removeSubscriptionAddon(ctx, {
        subscriptionId: id,
        addon: code,
        actor: actorOf(request),
      });
      return presentSubscriptionAddon(removed);
    },
  );
}
