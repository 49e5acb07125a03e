/**
 * Import layering (npm run lint): a layer imports only layers below it, and nothing imports in a
 * circle. From the bottom:
 *   foundations     config, clock, money, logger, crypto, metrics, text
 *   domain          billing (pure: periods, dunning, state tables; no crypto)
 *   infrastructure  db (its enums are the domain's state tables), gateway, queue, infra
 *   context         context (the engine context and the shared billing clock)
 *   services     charging, scheduler, enrollment, invoicing, refunds, cancellation, coupons, dunning,
 *                customers, plans, events, webhooks, apikeys, imports, late-payments, payment-links, breaker, ops,
 *                health, pricing, plan-changes, portal, notices, documents, messages, customer-documents, usage,
 *                entitlements, addons, one-off-charges, upcoming, usage-billing, sessions (the ops dashboard's
 *                and the portal's browser sessions), resources (the public shape of charges, subscriptions,
 *                messages, which the API, webhooks and the CLI present, and the reads that load them),
 *                problems (refusals as problem details, which the API answers, the dashboard and the CLI name)
 *   edges        http and api answer requests and import no other edge; app, the composition root,
 *                builds an engine and its HTTP server out of them, importing http and api but never the
 *                processes that run it; runtime, which runs an engine's processes, imports app alone of
 *                the edges; cli, the `billing` command, imports app (an engine for one command) and
 *                runtime (its serve, worker and scheduler commands start runtime's processes, and it
 *                finds the engine's database as they do), never http or api.
 * The gateway simulator is a product of its own beside the engine: it may use foundations and the
 * domain, never the engine's infrastructure, context, services or edges, and the engine never imports
 * it except at the edges that start it (runtime, cli). Nothing in src imports test/, scripts/ or
 * workers/.
 */
const FOUNDATIONS = "^src/(config|clock|money|logger|crypto|metrics|text)/";
const DOMAIN = "^src/billing/";
const INFRASTRUCTURE = "^src/(db|gateway|queue|infra)/";
const CONTEXT = "^src/context/";
const SERVICES =
  "^src/(charging|scheduler|enrollment|invoicing|refunds|cancellation|coupons|dunning|customers|plans|events|webhooks|apikeys|imports|late-payments|breaker|ops|portal|health|pricing|plan-changes|payment-links|notices|documents|messages|customer-documents|usage|entitlements|addons|one-off-charges|upcoming|usage-billing|sessions|resources|problems)/";
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
    // Edges never import edges, but for the composition that puts them together (header).
    {
      name: "request-edges-import-no-edge",
      severity: "error",
      from: { path: "^src/(http|api)/" },
      to: { path: EDGES, pathNot: "^src/$1/" },
    },
    upward("app-imports-no-process-edge", "^src/app/", "^src/(cli|runtime)/"),
    upward("runtime-imports-only-app-of-the-edges", "^src/runtime/", "^src/(http|api|cli)/"),
    upward("cli-imports-no-request-edge", "^src/cli/", "^src/(http|api)/"),
    upward("only-runtime-and-cli-start-the-simulator", "^src/(http|api|app)/", SIMULATOR),
    upward("simulator-stands-alone", SIMULATOR, `${INFRASTRUCTURE}|${CONTEXT}|${SERVICES}|${EDGES}`),
    upward("src-imports-no-tooling", "^src/", "^(test|scripts|workers)/"),
  ],
  options: {
    doNotFollow: { path: "node_modules|^dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
