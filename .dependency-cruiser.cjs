/**
 * Import layering (npm run lint): a layer imports only layers below it, and nothing imports in a
 * circle. From the bottom:
 *   foundations     config, clock, money, logger, crypto, metrics
 *   domain          billing (pure: periods, dunning, state tables)
 *   infrastructure  db (its enums are the domain's state tables), gateway, queue, infra
 *   context         context (the engine context and the shared billing clock)
 *   services     charging, scheduler, enrollment, invoicing, refunds, cancellation, coupons, dunning,
 *                customers, plans, events, webhooks, apikeys, imports, late-payments, payment-links, breaker, ops,
 *                health, pricing, plan-changes, portal, notices, customer-documents, usage, entitlements,
 *                addons, one-off-charges, upcoming, usage-billing, resources (the public shape of charges
 *                and subscriptions, which the API and webhooks both present)
 *   edges        http, api, cli, runtime, app (the composition root)
 * The gateway simulator is a product of its own beside the engine: it may use foundations and the
 * domain, never the engine's services or edges, and the engine never imports it except at the edges
 * that start it (runtime, cli).
 */
const FOUNDATIONS = "^src/(config|clock|money|logger|crypto|metrics)/";
const DOMAIN = "^src/billing/";
const INFRASTRUCTURE = "^src/(db|gateway|queue|infra)/";
const CONTEXT = "^src/context/";
const SERVICES =
  "^src/(charging|scheduler|enrollment|invoicing|refunds|cancellation|coupons|dunning|customers|plans|events|webhooks|apikeys|imports|late-payments|breaker|ops|portal|health|pricing|plan-changes|payment-links|notices|documents|messages|customer-documents|usage|entitlements|addons|one-off-charges|upcoming|usage-billing|resources)/";
const EDGES = "^src/(http|api|cli|runtime|app)/";
const SIMULATOR = "^src/simulator/";

const upward = (name, from, to) => ({ name, severity: "error", from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
    upward(
      "foundations-import-nothing-above",
      FOUNDATIONS,
      `${DOMAIN}|${INFRASTRUCTURE}|${CONTEXT}|${SERVICES}|${EDGES}|${SIMULATOR}`,
    ),
    upward(
      "domain-imports-only-foundations",
      DOMAIN,
      `${INFRASTRUCTURE}|${CONTEXT}|${SERVICES}|${EDGES}|${SIMULATOR}|^src/crypto/`,
    ),
    upward(
      "infrastructure-imports-no-service",
      INFRASTRUCTURE,
      `${CONTEXT}|${SERVICES}|${EDGES}|${SIMULATOR}`,
    ),
    upward("context-imports-no-service", CONTEXT, `${SERVICES}|${EDGES}|${SIMULATOR}`),
    upward("services-import-no-edge", SERVICES, `${EDGES}|${SIMULATOR}`),
    upward("simulator-stands-alone", SIMULATOR, `${CONTEXT}|${SERVICES}|${EDGES}`),
    upward("src-imports-no-tooling", "^src/", "^(test|scripts|workers)/"),
  ],
  options: {
    doNotFollow: { path: "node_modules|^dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
