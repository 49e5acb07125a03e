import { formatAmount, type MessageLanguage } from "../messages/render/index.js";
import type { Money } from "../money/index.js";

/**
 * Rule: the enrolment checkout carries a note, in the customer's language, saying that its amount
 * only verifies the card and goes back to it at once (isVoid), and that the subscription is
 * charged apart from it.
 *
 * Without it the page said only "Pay 100.00 QAR", and a customer could take the card check for
 * the subscription's first charge, or for a charge on top of it. The note is AddTransaction's
 * `note`, which the gateway's spec caps at 300 characters (a payment note); both texts stay well
 * under it.
 */
const NOTES: Record<MessageLanguage, (amount: string) => string> = {
  en: (amount) =>
    `Card verification only: ${amount} is returned to your card as soon as the payment goes through. Your subscription is charged separately.`,
  ar: (amount) =>
    `للتحقق من البطاقة فقط: يُعاد مبلغ ${amount} إلى بطاقتك فور إتمام الدفع. تُحصَّل رسوم اشتراكك بشكل منفصل.`,
};

export const verificationNote = (amount: Money, language: MessageLanguage): string =>
  NOTES[language](formatAmount(amount, language));
