import type { MessageKind } from "../billing/index.js";
import type { MessageContext } from "./context.js";
import { cardExpiringModel } from "./models/card-expiring.js";
import { paymentDueModel } from "./models/payment-due.js";
import { paymentFailedModel } from "./models/payment-failed.js";
import { receiptModel } from "./models/receipt.js";
import { refundIssuedModel } from "./models/refund-issued.js";
import { renewalUpcomingModel } from "./models/renewal-upcoming.js";
import type { ModelLoader, ModelResult, ModelSource } from "./models/source.js";
import { subscriptionCanceledModel } from "./models/subscription-canceled.js";
import { trialEndingModel } from "./models/trial-ending.js";

/**
 * A message's model, built from its row, its event and the rows they name, as they are when the
 * message's turn comes (one loader per kind, in models/); or why it no longer applies.
 */
const LOADERS: Readonly<Record<MessageKind, ModelLoader>> = {
  receipt: receiptModel,
  payment_due: paymentDueModel,
  payment_failed: paymentFailedModel,
  card_expiring: cardExpiringModel,
  renewal_upcoming: renewalUpcomingModel,
  trial_ending: trialEndingModel,
  subscription_canceled: subscriptionCanceledModel,
  refund_issued: refundIssuedModel,
};

export function loadMessageModel(ctx: MessageContext, source: ModelSource): Promise<ModelResult> {
  return LOADERS[source.kind](ctx, source);
}
