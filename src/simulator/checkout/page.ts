import { toDecimalString } from "../../money/index.js";
import { escapeHtml } from "../../text/index.js";
import type { FormProblem } from "../cards/card-input.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { CheckoutSession, Language } from "./checkout-session.js";
import { textFor } from "./i18n.js";

/** The redirect delay of the Events table's v1 rows, used for every result page. */
const REDIRECT_DELAY_SECONDS = 2;

const STYLE = `body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;padding:2rem}
main{max-width:26rem;margin:auto;background:#fff;border-radius:.5rem;padding:1.5rem;box-shadow:0 1px 4px #0002}
label{display:block;margin-top:.8rem;font-size:.9rem}input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
button{margin-top:1.2rem;width:100%;padding:.7rem;font-size:1rem;background:#7a1f3d;color:#fff;border:0;border-radius:.3rem}
.error{color:#b00020}.note{color:#555;font-size:.85rem}.amount{font-size:1.4rem;font-weight:600}`;

function document(language: Language, body: string, head = ""): string {
  const text = textFor(language);
  return `<!doctype html>
<html lang="${language}" dir="${language === "ar" ? "rtl" : "ltr"}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(text.title)}</title><style>${STYLE}</style>${head}</head>
<body><main>${body}</main></body>
</html>`;
}

/** The card form of a checkout still waiting for payment. */
export function checkoutFormPage(
  session: CheckoutSession,
  merchant: MerchantAccount,
  problem?: FormProblem,
): string {
  const text = textFor(session.language);
  const payment = session.payment;
  const amount = `${toDecimalString(payment.amountMinor, payment.currency)} ${payment.currency}`;
  const flow = session.flow;
  const restriction =
    flow.kind === "legacy" && flow.cardType !== "both"
      ? `<p class="note" id="card-type">${escapeHtml(text.problems[flow.cardType === "credit" ? "credit_only" : "debit_only"])}</p>`
      : "";
  const error = problem
    ? `<p class="error" id="error" role="alert">${escapeHtml(text.problems[problem])}</p>`
    : "";
  const testMode =
    merchant.mode === "test" ? `<p class="note" id="test-mode">${escapeHtml(text.testMode)}</p>` : "";
  return document(
    session.language,
    `<h1>${escapeHtml(merchant.name)}</h1>
<p class="amount" id="amount">${escapeHtml(amount)}</p>
<p>${escapeHtml(text.order)}: <span id="order-id">${escapeHtml(payment.orderId ?? "")}</span></p>
${session.note === null ? "" : `<p class="note" id="note">${escapeHtml(session.note)}</p>`}
${restriction}${error}
<form method="post" action="/checkout/${escapeHtml(session.id)}" id="card-form">
<label for="card_number">${escapeHtml(text.cardNumber)}</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required>
<label for="expiry">${escapeHtml(text.expiry)}</label>
<input id="expiry" name="expiry" placeholder="MM/YY" autocomplete="cc-exp" required>
<label for="cvv">${escapeHtml(text.cvv)}</label>
<input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" required>
<label for="name">${escapeHtml(text.name)}</label>
<input id="name" name="name" autocomplete="cc-name" required>
<button type="submit" id="pay">${escapeHtml(text.pay)} ${escapeHtml(amount)}</button>
</form>
${testMode}`,
  );
}

/**
 * The default result screen. With a merchant URL it sends the client on after 2 seconds: by script,
 * or by a meta refresh when scripts are off (inside noscript, so the merchant URL is requested once).
 */
export function resultPage(session: CheckoutSession): string {
  const text = textFor(session.language);
  const payment = session.payment;
  const success = payment.status === "SUCCESS";
  const url = session.redirectUrl;
  const head =
    url === null
      ? ""
      : `<noscript><meta http-equiv="refresh" content="${REDIRECT_DELAY_SECONDS};url=${escapeHtml(url)}"></noscript>
<script>setTimeout(function(){location.replace(${scriptString(url)})},${REDIRECT_DELAY_SECONDS * 1000});</script>`;
  const onward =
    url === null
      ? ""
      : `<p class="note">${escapeHtml(text.redirecting)} <a id="continue" href="${escapeHtml(url)}">${escapeHtml(text.continue)}</a></p>`;
  return document(
    session.language,
    `<h1 id="result" data-status="${success ? "SUCCESS" : "FAILURE"}">${escapeHtml(success ? text.success : text.failure)}</h1>
<p id="description">${escapeHtml(payment.description)}</p>
<p>${escapeHtml(text.transaction)}: <span id="transaction-id">${escapeHtml(payment.transactionId)}</span></p>
${onward}`,
    head,
  );
}

export function notFoundPage(language: Language): string {
  return document(language, `<h1>${escapeHtml(textFor(language).notFound)}</h1>`);
}

/** A JS string literal safe inside a script element. */
function scriptString(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
