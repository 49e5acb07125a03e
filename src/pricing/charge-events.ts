import { EVENT_TYPES, type EventInput } from "../events/index.js";

/**
 * The events of a charge just written: `charge.created` with what it costs, and, when it came to
 * zero and so was recorded paid without the gateway, `charge.succeeded` as a collected one has.
 */
export function createdChargeEvents(
  subjects: Omit<EventInput, "type" | "data"> & { chargeId: string },
  data: Record<string, unknown> & { amount_minor: number },
): EventInput[] {
  const created: EventInput = { ...subjects, type: "charge.created", data };
  if (data.amount_minor !== 0) return [created];
  return [
    created,
    { ...subjects, type: EVENT_TYPES.chargeSucceeded, data: { amount_minor: 0, paid_without_gateway: true } },
  ];
}
