import type { AccountSubscription } from "../../portal/index.js";
import type { PortalSession } from "../../sessions/index.js";
import { html } from "../html.js";
import { date, fill, name } from "./format.js";
import type { Language, PortalText } from "./i18n.js";
import { portalLayout } from "./layout.js";

/**
 * GET /portal/subscriptions/:id/cancel: says when the subscription ends and asks once more. Only
 * its form (confirm=yes, the CSRF token) cancels; "No" is a link back that changes nothing.
 */
export function confirmCancelPage(input: {
  session: PortalSession;
  subscription: AccountSubscription;
  language: Language;
  text: PortalText;
  zone: string;
}): string {
  const { session, subscription, language, text, zone } = input;
  const ends = date(subscription.nextBillingAt ?? subscription.currentPeriodEnd, text, zone);
  return portalLayout(
    {
      language,
      text,
      title: text.confirmTitle,
      signedIn: {
        csrfToken: session.csrfToken,
        otherLanguageHref: `/portal/subscriptions/${subscription.id}/cancel?lang=${language === "ar" ? "en" : "ar"}`,
      },
    },
    html`<section class="confirm" id="confirm-cancel">
<h1>${text.confirmTitle}</h1>
<p>${fill(text.confirmBody, { plan: name(subscription.planName), date: ends })}</p>
<div class="actions">
<form method="post" action="/portal/subscriptions/${subscription.id}/cancel">
<input type="hidden" name="csrf" value="${session.csrfToken}"><input type="hidden" name="lang" value="${language}">
<input type="hidden" name="confirm" value="yes">
<button type="submit" class="danger" id="confirm-yes">${text.confirmYes}</button>
</form>
<a class="button secondary" id="confirm-no" href="/portal?lang=${language}">${text.confirmNo}</a>
</div>
</section>`,
  );
}
