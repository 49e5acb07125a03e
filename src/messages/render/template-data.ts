import { formatAmount } from "./amount.js";
import { checkTimeZone, type DateStyle, formatDate } from "./dates.js";
import {
  type Amount,
  MESSAGE_KINDS,
  MESSAGE_LANGUAGES,
  type MessageLanguage,
  type MessageModel,
  type ReceiptLine,
  type RenderInput,
} from "./model.js";

/**
 * What a template sees as `it`: the message with every amount and date already written for the
 * customer (`it.msg`), the merchant, the customer, and `it.isolate` for plain text. Templates stay
 * free of formatting rules, so a merchant's override cannot get an amount or a date wrong.
 * Everything is checked here, before a template runs: an unknown kind, language, currency or zone,
 * a date that does not parse, or a link that is not http(s) (it would become a button's href) is
 * an error, never a half-written message.
 */

/** Which model fields are dates, and how each is shown (card expiry is a month: cards run to its end). */
const DATE_FIELDS: ReadonlyMap<string, DateStyle> = new Map([
  ["periodStart", "date"],
  ["periodEnd", "date"],
  ["payBy", "date"],
  ["nextAttemptAt", "date"],
  ["renewsOn", "date"],
  ["trialEndsOn", "date"],
  ["canceledOn", "date"],
  ["endsOn", "date"],
  ["expiresOn", "month"],
  ["paidAt", "dateTime"],
]);

type Formatted<M> = M extends unknown
  ? {
      [K in keyof M]: M[K] extends Amount
        ? string
        : M[K] extends readonly (infer Item)[]
          ? Formatted<Item>[]
          : M[K];
    }
  : never;

/** The model with its amounts (its lines' too) formatted; dates stay strings, now in the customer's words. */
export type FormattedModel = Formatted<MessageModel>;

export interface TemplateData {
  language: MessageLanguage;
  merchant: RenderInput["merchant"];
  customer: RenderInput["customer"];
  msg: FormattedModel;
  isolate(value: string): string;
}

const FSI = "\u2068";
const PDI = "\u2069";
const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

export function templateData(input: RenderInput): TemplateData {
  const { model, language, merchant, customer, timeZone } = input;
  if (!(MESSAGE_KINDS as readonly string[]).includes(model.kind)) {
    throw new RangeError(`unknown message kind ${JSON.stringify(model.kind)}`);
  }
  if (!(MESSAGE_LANGUAGES as readonly string[]).includes(language)) {
    throw new RangeError(`unknown message language ${JSON.stringify(language)}`);
  }
  checkTimeZone(timeZone);
  const msg: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(model)) {
    msg[field] = value === null ? null : formatField(field, value, language, timeZone);
  }
  return {
    language,
    merchant: {
      ...merchant,
      logoUrl: merchant.logoUrl === null ? null : webUrl(merchant.logoUrl, "logoUrl"),
    },
    customer,
    msg: msg as FormattedModel,
    isolate: (value) => isolate(value, language),
  };
}

function formatField(field: string, value: unknown, language: MessageLanguage, zone: string): unknown {
  if (field === "amount") return formatAmount(value as Amount, language);
  if (field === "lines") {
    return (value as ReceiptLine[]).map((line) => ({ ...line, amount: formatAmount(line.amount, language) }));
  }
  const dateStyle = DATE_FIELDS.get(field);
  if (dateStyle) return formatDate(value as string, dateStyle, language, zone);
  if (field.endsWith("Url")) return webUrl(value as string, field);
  return value;
}

function webUrl(value: string, field: string): string {
  const protocol = URL.canParse(value) ? new URL(value).protocol : null;
  if (protocol !== "https:" && protocol !== "http:") {
    throw new RangeError(`${field} ${JSON.stringify(value)} is not an http(s) URL`);
  }
  return value;
}

/**
 * Plain text has no <bdi>: a value inside a sentence is wrapped in Unicode isolates (FSI…PDI) so
 * "RCT-000042" or "100.00 ر.ق." keeps its own direction and does not drag the words around it
 * along. Every value in Arabic text is; in English only one with right-to-left letters (an Arabic
 * plan or merchant name) needs it. URLs and e-mail addresses are never wrapped: mail programs
 * would take the invisible marks into the link; templates put them at the end of a line instead.
 */
function isolate(value: string, language: MessageLanguage): string {
  return language === "ar" || RTL_LETTER.test(value) ? `${FSI}${value}${PDI}` : value;
}
