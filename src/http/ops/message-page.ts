import type { MessageDetail } from "../../messages/index.js";
import type { OpsSession } from "../../sessions/index.js";
import { html, type Raw } from "../html.js";
import { at, mailboxHref, NO_SMTP_BANNER } from "./mailbox-page.js";
import { layout, shortId } from "./page.js";

/**
 * One message (GET /ops/messages/:id): its headers, how far it got, its plain text, and its HTML as
 * a mail program shows it: in a sandboxed frame whose srcdoc attribute is escaped. Without
 * allow-scripts nothing in it runs, and its origin is opaque, so it cannot reach this page or the
 * session. The Resend button posts the session's CSRF token, shown to keys that may resend.
 */

export interface MessageView {
  message: MessageDetail;
  session: OpsSession;
  canResend: boolean;
  smtp: boolean;
  notice?: string | undefined;
}

const NOTICES: Record<string, string> = {
  resent: "Resent: this is the new message; the message worker takes it up at its next round.",
};

/** The sentence for a notice code; an unknown one shows nothing (nothing from the URL is echoed). */
export const messageNotice = (code: unknown) => (typeof code === "string" ? NOTICES[code] : undefined);

const link = (href: string, text: string) => html`<a href="${href}"><code>${text}</code></a>`;

function facts(m: MessageDetail): Raw {
  return html`<dl class="facts" id="message-facts">
<dt>To</dt><dd><bdi>${m.toAddress}</bdi></dd>
<dt>Subject</dt><dd id="message-subject">${m.subject === null ? html`<span class="muted">not rendered yet</span>` : html`<bdi>${m.subject}</bdi>`}</dd>
<dt>Message-ID</dt><dd><code>${m.messageId ?? "–"}</code></dd>
<dt>Kind</dt><dd>${m.kind}</dd>
<dt>Language</dt><dd>${m.language}</dd>
<dt>Customer</dt><dd>${link(mailboxHref({ customer: m.customerId }), m.customerId)}</dd>
<dt>Charge</dt><dd>${m.chargeId ? link(`/ops/charges/${m.chargeId}`, m.chargeId) : "–"}</dd>
<dt>Event</dt><dd>${m.eventId}</dd>
<dt>Requested by</dt><dd>${m.requestedBy}</dd>
<dt>Resend of</dt><dd>${m.resendOf ? link(`/ops/messages/${m.resendOf}`, m.resendOf) : "–"}</dd>
<dt>Status</dt><dd id="message-status" class="status-${m.status}">${m.status}</dd>
<dt>Attempts</dt><dd>${m.attempts}</dd>
<dt>Next attempt</dt><dd>${at(m.nextAttemptAt)}</dd>
<dt>Last response</dt><dd>${m.lastResponse ?? "–"}</dd>
<dt>Created</dt><dd>${at(m.createdAt)}</dd>
<dt>Sent</dt><dd>${at(m.sentAt)}</dd>
</dl>`;
}

function resendForm(view: MessageView): Raw {
  if (!view.canResend) return html`<span class="muted" title="this key may not resend messages">–</span>`;
  return html`<form method="post" action="/ops/messages/${view.message.id}/resend" class="inline"><input type="hidden" name="csrf" value="${view.session.csrfToken}"><button type="submit" class="act" data-action="resend">Resend</button></form>`;
}

export function messagePage(view: MessageView): string {
  const { message: m, session, smtp, notice } = view;
  const unrendered = html`<p class="muted">Not rendered yet: the message worker renders it at its first attempt.</p>`;
  return layout(
    { title: `Message ${shortId(m.id)}`, session },
    html`${notice ? html`<p class="banner" id="notice" role="status">${notice}</p>` : ""}
${smtp ? "" : html`<p class="banner" id="no-smtp" role="status">${NO_SMTP_BANNER}</p>`}
<p><a href="/ops/messages">← Mailbox</a></p>
<h1>Message <code>${m.id}</code></h1>
${facts(m)}
<div class="actions" id="message-actions">${resendForm(view)}</div>
<h2>Text</h2>
${m.textBody === null ? unrendered : html`<pre class="mail-text" id="message-text">${m.textBody}</pre>`}
<h2>HTML</h2>
${m.htmlBody === null ? unrendered : html`<iframe class="mail-html" id="message-html" title="The HTML body" sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" srcdoc="${m.htmlBody}"></iframe>`}`,
  );
}
