import { checkoutLedgerView } from "../checkout/checkout-session.js";
import type { SimulatorCore } from "../core.js";
import { paymentLedgerView, refundLedgerView } from "../payments/payment.js";
import { tokenLedgerView } from "../tokens/token-store.js";

/**
 * GET /_sim/ledger: everything the simulator recorded, oldest first. `payments` holds processed
 * payments only (SUCCESS or FAILURE); checkouts still waiting for a card are under `checkouts`.
 */
const SECTIONS = {
  payments: (core: SimulatorCore, now: number) =>
    core.payments
      .all()
      .filter((payment) => payment.status !== "PENDING")
      .map((payment) => paymentLedgerView(payment, now)),
  refunds: (core: SimulatorCore) => core.payments.refunds.map(refundLedgerView),
  tokens: (core: SimulatorCore, now: number) =>
    [...core.tokens.all()].map((token) => tokenLedgerView(token, now)),
  invoices: (core: SimulatorCore) => core.invoices.all(),
  webhooks: (core: SimulatorCore) => core.events.webhooks,
  redirects: (core: SimulatorCore) => core.events.redirects,
  pushes: (core: SimulatorCore) => core.events.pushes,
  checkouts: (core: SimulatorCore) => [...core.checkouts.all()].map(checkoutLedgerView),
};

export type LedgerSection = keyof typeof SECTIONS;

export function isLedgerSection(name: string): name is LedgerSection {
  return Object.hasOwn(SECTIONS, name);
}

/** The whole ledger, or only the sections named (a large simulator answers fast for one section). */
export function ledger(core: SimulatorCore, only?: readonly LedgerSection[]) {
  const now = core.now();
  const names = only?.length ? only : (Object.keys(SECTIONS) as LedgerSection[]);
  return Object.fromEntries(names.map((name) => [name, SECTIONS[name](core, now)])) as {
    [K in LedgerSection]: ReturnType<(typeof SECTIONS)[K]>;
  };
}
