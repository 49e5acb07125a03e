import type { FormProblem } from "../cards/card-input.js";
import type { Language } from "./checkout-session.js";

export interface PageText {
  title: string;
  pay: string;
  order: string;
  cardNumber: string;
  expiry: string;
  cvv: string;
  name: string;
  testMode: string;
  success: string;
  failure: string;
  transaction: string;
  redirecting: string;
  continue: string;
  notFound: string;
  problems: Record<FormProblem, string>;
}

const EN: PageText = {
  title: "Secure checkout",
  pay: "Pay",
  order: "Order",
  cardNumber: "Card number",
  expiry: "Expiry (MM/YY)",
  cvv: "CVV",
  name: "Name on card",
  testMode: "Test mode: CVV 123 succeeds, any other CVV fails.",
  success: "Payment successful",
  failure: "Payment failed",
  transaction: "Transaction",
  redirecting: "You will be sent back to the merchant in 2 seconds.",
  continue: "Continue",
  notFound: "This checkout does not exist.",
  problems: {
    card_number: "Enter the card number.",
    expiry: "Enter the expiry date as MM/YY.",
    cvv: "Enter the CVV.",
    name: "Enter the name on the card.",
    credit_only: "Only credit cards are accepted for this payment.",
    debit_only: "Only debit cards are accepted for this payment.",
  },
};

const AR: PageText = {
  title: "الدفع الآمن",
  pay: "ادفع",
  order: "الطلب",
  cardNumber: "رقم البطاقة",
  expiry: "تاريخ الانتهاء (MM/YY)",
  cvv: "رمز التحقق (CVV)",
  name: "الاسم على البطاقة",
  testMode: "وضع الاختبار: رمز التحقق 123 ينجح وأي رمز آخر يفشل.",
  success: "تمت عملية الدفع بنجاح",
  failure: "فشلت عملية الدفع",
  transaction: "رقم العملية",
  redirecting: "سيتم تحويلك إلى التاجر خلال ثانيتين.",
  continue: "متابعة",
  notFound: "صفحة الدفع هذه غير موجودة.",
  problems: {
    card_number: "أدخل رقم البطاقة.",
    expiry: "أدخل تاريخ الانتهاء بصيغة MM/YY.",
    cvv: "أدخل رمز التحقق.",
    name: "أدخل الاسم على البطاقة.",
    credit_only: "تقبل هذه العملية بطاقات الائتمان فقط.",
    debit_only: "تقبل هذه العملية بطاقات الخصم فقط.",
  },
};

export function textFor(language: Language): PageText {
  return language === "ar" ? AR : EN;
}

/** English messages of the form problems, for /_sim/pay replies. */
export const PROBLEM_MESSAGES = EN.problems;
