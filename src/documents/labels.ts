import type { DocumentSeries, RefundStatus } from "../billing/index.js";

/**
 * Every word a document prints, in English and Arabic. Values (amounts, numbers, dates, names) are
 * never translated; a label with a value in it names the value as {placeholder}.
 */

export type TextLanguage = "en" | "ar";

export interface DocumentWords {
  title: Record<DocumentSeries, string>;
  number: string;
  issued: string;
  customer: string;
  taxId: string;
  description: string;
  amount: string;
  changeTo: string;
  discount: string;
  couponDiscount: string;
  credit: string;
  subtotal: string;
  tax: string;
  total: Record<DocumentSeries, string>;
  payment: Record<DocumentSeries, string>;
  card: string;
  transaction: Record<DocumentSeries, string>;
  paidOn: string;
  refund: string;
  originalReceipt: string;
  refundReference: string;
  status: string;
  statuses: Record<RefundStatus, string>;
  note: Record<DocumentSeries, string>;
}

const en: DocumentWords = {
  title: { receipt: "Receipt", credit_note: "Credit note" },
  number: "Number",
  issued: "Issued",
  customer: "Customer",
  taxId: "Tax ID",
  description: "Description",
  amount: "Amount",
  changeTo: "Change to {plan}",
  discount: "Discount",
  couponDiscount: "Discount {percent}",
  credit: "Credit applied",
  subtotal: "Subtotal excluding tax",
  tax: "{label} {rate} included",
  total: { receipt: "Total paid", credit_note: "Total refunded" },
  payment: { receipt: "Payment", credit_note: "Original payment" },
  card: "Card",
  transaction: { receipt: "Transaction", credit_note: "Refunded transaction" },
  paidOn: "Paid on",
  refund: "Refund",
  originalReceipt: "Original receipt",
  refundReference: "Refund reference",
  status: "Status",
  statuses: {
    requested: "Requested",
    completed: "Completed",
    under_processing: "Processing",
    failed: "Failed",
    unknown: "Awaiting confirmation",
  },
  note: {
    receipt: "Thank you for your payment.",
    credit_note: "The amount above is returned to the original payment method.",
  },
};

const ar: DocumentWords = {
  title: { receipt: "إيصال", credit_note: "إشعار دائن" },
  number: "الرقم",
  issued: "تاريخ الإصدار",
  customer: "العميل",
  taxId: "الرقم الضريبي",
  description: "الوصف",
  amount: "المبلغ",
  changeTo: "التغيير إلى {plan}",
  discount: "خصم",
  couponDiscount: "خصم {percent}",
  credit: "الرصيد المستخدم",
  subtotal: "المجموع قبل الضريبة",
  tax: "الضريبة المشمولة {label} {rate}",
  total: { receipt: "إجمالي المدفوع", credit_note: "إجمالي المبلغ المسترد" },
  payment: { receipt: "الدفع", credit_note: "الدفعة الأصلية" },
  card: "البطاقة",
  transaction: { receipt: "رقم العملية", credit_note: "العملية المستردة" },
  paidOn: "تاريخ الدفع",
  refund: "الاسترداد",
  originalReceipt: "الإيصال الأصلي",
  refundReference: "مرجع الاسترداد",
  status: "الحالة",
  statuses: {
    requested: "مطلوب",
    completed: "مكتمل",
    under_processing: "قيد المعالجة",
    failed: "لم ينجح",
    unknown: "بانتظار التأكيد",
  },
  note: {
    receipt: "شكراً لكم على الدفع.",
    credit_note: "يعاد المبلغ أعلاه إلى وسيلة الدفع الأصلية.",
  },
};

export const WORDS: Record<TextLanguage, DocumentWords> = { en, ar };

/** A label with its {placeholders} filled in. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) => values[name] ?? whole);
}
