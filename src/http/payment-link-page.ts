import { customerPage, type PageLanguage } from "./customer-page.js";
import { html, money } from "./html.js";

/**
 * The pages of a payment link (payment-link-routes.ts), in the customer's language. They say what
 * our records say after CheckStatus, never what a URL claims; the only variable parts are the
 * amount, the plan's name (escaped) and the link itself (ours, signed).
 */
export type LinkPageKind = "paid" | "closed" | "declined" | "pending" | "unavailable";

export interface LinkPageFacts {
  readonly language: PageLanguage;
  readonly amountMinor: number;
  readonly currency: string;
  readonly planName: string;
  readonly link: string;
}

const TEXT: Record<PageLanguage, Record<LinkPageKind, { title: string; body: string; retry?: string }>> = {
  en: {
    paid: { title: "Paid, thank you", body: "This payment is complete. You can close this page." },
    closed: {
      title: "This payment link is closed",
      body: "Nothing is due through this link any more, and nothing was taken. Contact the merchant if you think this is wrong.",
    },
    declined: {
      title: "The payment did not go through",
      body: "Nothing was taken. You can try again with the same or another card.",
      retry: "Try again",
    },
    pending: {
      title: "We have not received this payment yet",
      body: "If you have just paid, wait a moment and reload this page.",
      retry: "Pay now",
    },
    unavailable: {
      title: "Payment is not available right now",
      body: "Nothing was taken. Please try again in a few minutes.",
      retry: "Try again",
    },
  },
  ar: {
    paid: { title: "تم الدفع، شكراً لك", body: "اكتملت هذه الدفعة. يمكنك إغلاق هذه الصفحة." },
    closed: {
      title: "رابط الدفع هذا مغلق",
      body: "لم يعد أي مبلغ مستحقاً عبر هذا الرابط، ولم يُخصم شيء. تواصل مع التاجر إن كنت تظن أن هذا خطأ.",
    },
    declined: {
      title: "لم تتم عملية الدفع",
      body: "لم يُخصم أي مبلغ. يمكنك المحاولة مرة أخرى بالبطاقة نفسها أو ببطاقة أخرى.",
      retry: "حاول مرة أخرى",
    },
    pending: {
      title: "لم نستلم هذه الدفعة بعد",
      body: "إذا كنت قد دفعت للتو، يُرجى الانتظار قليلاً ثم إعادة تحميل هذه الصفحة.",
      retry: "ادفع الآن",
    },
    unavailable: {
      title: "الدفع غير متاح حالياً",
      body: "لم يُخصم أي مبلغ. يُرجى المحاولة بعد بضع دقائق.",
      retry: "حاول مرة أخرى",
    },
  },
};

/** Beside "pay", on pages that offer it: pay and keep the card for automatic payments. */
const SAVE_CARD: Record<PageLanguage, string> = {
  en: "Pay and save the card for automatic payments",
  ar: "ادفع واحفظ البطاقة للدفع التلقائي",
};

export function paymentLinkPage(kind: LinkPageKind, facts: LinkPageFacts): string {
  const { title, body, retry } = TEXT[facts.language][kind];
  const action = retry
    ? html`\n<div class="actions"><a class="button pay" href="${facts.link}">${retry}</a><a class="button secondary save" href="${`${facts.link}?save_card=1`}">${SAVE_CARD[facts.language]}</a></div>`
    : "";
  return customerPage({
    language: facts.language,
    kind,
    title,
    content: html`<p class="amount num" dir="ltr">${money(facts.amountMinor, facts.currency)}</p>
<p class="plan">${facts.planName}</p>
<p>${body}</p>${action}`,
  });
}

export type DuePageKind = "trialing" | "preparing" | "nothing_due";

const DUE_TEXT: Record<PageLanguage, Record<DuePageKind, { title: string; body: string }>> = {
  en: {
    trialing: {
      title: "Your trial has started",
      body: "Nothing is due now. When the trial ends you pay each period by payment link; keep this page's address to pay then.",
    },
    preparing: {
      title: "Preparing your payment",
      body: "Your first payment is being prepared. This page opens it in a moment.",
    },
    nothing_due: {
      title: "Nothing to pay right now",
      body: "There is no payment due. You can close this page.",
    },
  },
  ar: {
    trialing: {
      title: "بدأت فترتك التجريبية",
      body: "لا يوجد مبلغ مستحق الآن. عند انتهاء الفترة التجريبية تدفع كل فترة عبر رابط دفع؛ احتفظ بعنوان هذه الصفحة للدفع حينها.",
    },
    preparing: { title: "جارٍ تجهيز دفعتك", body: "يجري تجهيز دفعتك الأولى. ستفتحها هذه الصفحة بعد لحظات." },
    nothing_due: { title: "لا يوجد ما تدفعه الآن", body: "لا توجد دفعة مستحقة. يمكنك إغلاق هذه الصفحة." },
  },
};

/** A subscription's "what I owe" page when it has no payment link to send the customer to. */
export function subscriptionDuePage(kind: DuePageKind, language: PageLanguage): string {
  const { title, body } = DUE_TEXT[language][kind];
  return customerPage({
    language,
    kind,
    title,
    content: html`<p>${body}</p>`,
    ...(kind === "preparing" ? { refreshSeconds: 3 } : {}),
  });
}
