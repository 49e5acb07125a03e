import { customerPage, type PageLanguage } from "./customer-page.js";
import { html } from "./html.js";

/**
 * The page a customer's browser lands on when the gateway sends it back to us. It says only what
 * our records say after the gateway confirmed the payment, never what the URL claims, and holds no
 * text from the request, so nothing can be injected into it. Its one variable part, the link back
 * to the page that started the checkout (the customer portal), comes from the enrollment row.
 */
export type ResultPageKind = "success" | "failure" | "unconfirmed" | "unavailable";

interface PageText {
  title: string;
  body: string;
}

const BACK: Record<PageLanguage, string> = { en: "Back to your account", ar: "العودة إلى حسابك" };

/** After a card could not be saved: pay each period by payment link instead (payment-links/). */
const BY_LINK: Record<PageLanguage, { text: string; button: string }> = {
  en: {
    text: "This card cannot be saved for automatic payments (debit cards issued in Qatar cannot). You can pay each period by payment link instead, with this card or any other.",
    button: "Pay by payment link instead",
  },
  ar: {
    text: "لا يمكن حفظ هذه البطاقة للدفع التلقائي (لا تدعم بطاقات الخصم الصادرة في قطر ذلك). يمكنك بدلاً من ذلك دفع كل فترة عبر رابط دفع، بهذه البطاقة أو بأي بطاقة أخرى.",
    button: "الدفع عبر رابط دفع بدلاً من ذلك",
  },
};

const TEXT: Record<PageLanguage, Record<ResultPageKind, PageText>> = {
  en: {
    success: {
      title: "Your card is saved",
      body: "Your card was confirmed and your subscription is set up. You can close this page.",
    },
    failure: {
      title: "Your card could not be confirmed",
      body: "Nothing was saved. You can try again with a new payment link.",
    },
    unconfirmed: {
      title: "We could not confirm this payment",
      body: "If you have just paid, wait a moment and reload this page.",
    },
    unavailable: {
      title: "We could not confirm this payment yet",
      body: "Please reload this page in a minute.",
    },
  },
  ar: {
    success: {
      title: "تم حفظ بطاقتك",
      body: "تم تأكيد بطاقتك وإعداد اشتراكك. يمكنك إغلاق هذه الصفحة.",
    },
    failure: {
      title: "تعذّر تأكيد بطاقتك",
      body: "لم يُحفظ أي شيء. يمكنك المحاولة مرة أخرى عبر رابط دفع جديد.",
    },
    unconfirmed: {
      title: "تعذّر علينا تأكيد هذه العملية",
      body: "إذا كنت قد دفعت للتو، يُرجى الانتظار قليلاً ثم إعادة تحميل هذه الصفحة.",
    },
    unavailable: {
      title: "لم نتمكن من تأكيد هذه العملية بعد",
      body: "يُرجى إعادة تحميل هذه الصفحة بعد دقيقة.",
    },
  },
};

/**
 * The page for `kind`, with a link to `returnUrl` (an http(s) URL of ours) when there is one, and
 * the offer to pay by link (`byLinkAction`, a signed URL of ours to POST to) when there is one.
 */
export function resultPage(
  kind: ResultPageKind,
  language: PageLanguage,
  returnUrl?: string,
  byLinkAction?: string,
): string {
  const { title, body } = TEXT[language][kind];
  const offer = byLinkAction
    ? html`\n<form class="by-link" method="post" action="${byLinkAction}"><p>${BY_LINK[language].text}</p><button type="submit">${BY_LINK[language].button}</button></form>`
    : "";
  const back = returnUrl ? html`\n<p class="back"><a href="${returnUrl}">${BACK[language]}</a></p>` : "";
  return customerPage({ language, kind, title, content: html`<p>${body}</p>${offer}${back}` });
}
