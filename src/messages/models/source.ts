import { DateTime } from "luxon";
import { z } from "zod";
import type { MessageKind } from "../../billing/index.js";
import type { MessageContext } from "../context.js";
import type { MessageModel } from "../render/index.js";

/**
 * What a message's model is built from: the message, the event that caused it, and the
 * customer's time zone for dates. A loader reads the rows it needs afresh when the message's turn
 * comes, and says instead why the message no longer applies when the facts moved on (a charge paid
 * meanwhile, a subscription canceled): the message is then suppressed, with that reason kept.
 */
export interface ModelSource {
  kind: MessageKind;
  customerId: string;
  chargeId: string | null;
  eventId: number;
  event: {
    subscriptionId: string | null;
    chargeId: string | null;
    data: Record<string, unknown>;
    occurredAt: Date;
  };
  /** IANA zone of the customer's dates. */
  zone: string;
  now: DateTime;
}

export type ModelResult = { model: MessageModel } | { suppressed: string };

export type ModelLoader = (ctx: MessageContext, source: ModelSource) => Promise<ModelResult>;

/** The calendar day of an instant on the customer's clock, yyyy-mm-dd. */
export function localDate(instant: Date | string, zone: string): string {
  const parsed =
    typeof instant === "string"
      ? DateTime.fromISO(instant, { zone })
      : DateTime.fromJSDate(instant, { zone });
  if (!parsed.isValid) throw new RangeError(`${String(instant)} is not a date`);
  return parsed.toISODate() as string;
}

/**
 * Event data is read field by field: a field missing or of another shape is undefined, and the
 * loader falls back to the rows, so an older or newer producer never blocks a message.
 */
export const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export function readData<S extends z.ZodRawShape>(shape: S, data: Record<string, unknown>) {
  return z.object(shape).parse(data);
}

export const isoText = optional(z.string().refine((value) => DateTime.fromISO(value).isValid));
