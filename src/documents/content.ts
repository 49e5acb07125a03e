import { amountText, dateText, rateText } from "./format.js";
import { type DocumentWords, fill, type TextLanguage, WORDS } from "./labels.js";
import type { DocumentLanguage, DocumentLine, DocumentModel } from "./model.js";

/**
 * A document's words and values in the languages asked for, laid out by html.ts and pdf.ts alike.
 * Every label is a stack: one text in English or Arabic, or Arabic over English on a bilingual
 * document, which reads right to left like the Arabic one. Each text says its direction: labels
 * their language's, amounts, numbers and e-mails left to right (1,234.50 QAR never turns around),
 * and what people typed (names, addresses, plans) by its first strong letter.
 */

export interface Text {
  text: string;
  dir: "ltr" | "rtl" | "auto";
}

/** The main language first; a second text is the English under the Arabic of a bilingual label. */
export type Stack = readonly Text[];

export interface Field {
  label: Stack;
  value: Text;
}

export interface DocumentContent {
  /** The main language: the page's lang, and with `dir` the side everything starts from. */
  lang: TextLanguage;
  dir: "ltr" | "rtl";
  title: Stack;
  facts: Field[];
  merchant: { name: Text; address: Text[]; taxId: Field | null; logoUrl: string | null };
  customer: { label: Stack; name: Text | null; email: Text };
  columns: { description: Stack; amount: Stack };
  rows: { description: Stack; detail: Text | null; amount: Text }[];
  totals: { label: Stack; amount: Text; grand: boolean }[];
  sections: { heading: Stack; fields: Field[] }[];
  note: Stack;
}

const LANGUAGES: Record<DocumentLanguage, readonly TextLanguage[]> = {
  en: ["en"],
  ar: ["ar"],
  bilingual: ["ar", "en"],
};

const ltr = (text: string): Text => ({ text, dir: "ltr" });
const auto = (text: string): Text => ({ text, dir: "auto" });

/** How one document speaks: its labels in its languages, its dates and amounts as printed. */
interface Voice {
  languages: readonly TextLanguage[];
  label(pick: (words: DocumentWords) => string): Stack;
  date(instant: Date): Text;
  money(minor: number): Text;
}

function voiceOf(model: DocumentModel, language: DocumentLanguage): Voice {
  const languages = LANGUAGES[language];
  // One date serves both languages of a bilingual document, so it is written in neither.
  const dateStyle = language === "bilingual" ? "iso" : (languages[0] ?? "en");
  return {
    languages,
    label: (pick) =>
      languages.map((lang) => ({ text: pick(WORDS[lang]), dir: lang === "ar" ? "rtl" : "ltr" })),
    date: (instant) => auto(dateText(instant, model.timeZone, dateStyle)),
    money: (minor) => ltr(amountText(minor, model.currency)),
  };
}

function row(v: Voice, line: DocumentLine): DocumentContent["rows"][number] {
  const amount = v.money(line.amountMinor);
  switch (line.kind) {
    case "plan":
      return {
        description: line.planChange
          ? v.label((w) => fill(w.changeTo, { plan: line.planName }))
          : [auto(line.planName)],
        detail: auto(`${v.date(line.periodStart).text} – ${v.date(line.periodEnd).text}`),
        amount,
      };
    case "item": {
      const { periodStart, periodEnd } = line;
      return {
        description: [
          auto(line.quantity === 1 ? line.description : `${line.description} × ${line.quantity}`),
        ],
        detail:
          periodStart && periodEnd ? auto(`${v.date(periodStart).text} – ${v.date(periodEnd).text}`) : null,
        amount,
      };
    }
    case "discount": {
      const percent = line.couponPercent;
      return {
        description: v.label((w) =>
          percent === null ? w.discount : fill(w.couponDiscount, { percent: `${percent}%` }),
        ),
        detail: null,
        amount,
      };
    }
    case "credit":
      return { description: v.label((w) => w.credit), detail: null, amount };
  }
}

function totals(v: Voice, model: DocumentModel): DocumentContent["totals"] {
  const grand = {
    label: v.label((w) => w.total[model.kind]),
    amount: v.money(model.totalMinor),
    grand: true,
  };
  const { tax } = model;
  if (tax === null) return [grand];
  return [
    { label: v.label((w) => w.subtotal), amount: v.money(model.subtotalMinor), grand: false },
    {
      label: v.label((w) => fill(w.tax, { label: tax.label, rate: rateText(tax.rateBp) })),
      amount: v.money(tax.includedMinor),
      grand: false,
    },
    grand,
  ];
}

/** The fields of a section, each only when its value is known. */
function known(fields: [label: Stack, value: Text | null][]): Field[] {
  return fields.flatMap(([label, value]) => (value === null ? [] : [{ label, value }]));
}

function sections(v: Voice, model: DocumentModel): DocumentContent["sections"] {
  const { kind, payment, refund } = model;
  const paid = known([
    [v.label((w) => w.card), payment.cardLast4 === null ? null : ltr(`•••• ${payment.cardLast4}`)],
    [v.label((w) => w.transaction[kind]), payment.transactionId === null ? null : ltr(payment.transactionId)],
    [v.label((w) => w.paidOn), payment.paidAt === null ? null : v.date(payment.paidAt)],
  ]);
  const all = paid.length === 0 ? [] : [{ heading: v.label((w) => w.payment[kind]), fields: paid }];
  if (refund === null) return all;
  const status = v.languages.map((lang) => WORDS[lang].statuses[refund.status]).join(" / ");
  const returned = known([
    [v.label((w) => w.originalReceipt), refund.receiptNumber === null ? null : ltr(refund.receiptNumber)],
    [
      v.label((w) => w.refundReference),
      refund.refundTransactionId === null ? null : ltr(refund.refundTransactionId),
    ],
    [v.label((w) => w.status), auto(status)],
  ]);
  return [...all, { heading: v.label((w) => w.refund), fields: returned }];
}

export function documentContent(model: DocumentModel, language: DocumentLanguage): DocumentContent {
  const v = voiceOf(model, language);
  const main = v.languages[0] ?? "en";
  const { kind, merchant, customer } = model;
  return {
    lang: main,
    dir: main === "ar" ? "rtl" : "ltr",
    title: v.label((w) => w.title[kind]),
    facts: [
      { label: v.label((w) => w.number), value: ltr(model.number) },
      { label: v.label((w) => w.issued), value: v.date(model.issuedAt) },
    ],
    merchant: {
      name: auto(merchant.name),
      address: merchant.address.map(auto),
      taxId: merchant.taxId === null ? null : { label: v.label((w) => w.taxId), value: ltr(merchant.taxId) },
      logoUrl: merchant.logoUrl,
    },
    customer: {
      label: v.label((w) => w.customer),
      name: customer.name ? auto(customer.name) : null,
      email: ltr(customer.email),
    },
    columns: { description: v.label((w) => w.description), amount: v.label((w) => w.amount) },
    rows: model.lines.map((line) => row(v, line)),
    totals: totals(v, model),
    sections: sections(v, model),
    note: v.label((w) => w.note[kind]),
  };
}
