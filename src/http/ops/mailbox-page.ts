import {
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  type MessageKind,
  type MessageStatus,
} from "../../billing/index.js";
import type { MessagePage, MessageSummary } from "../../messages/index.js";
import type { OpsSession } from "../../sessions/index.js";
import { html, type Raw } from "../html.js";
import { layout } from "./page.js";

/**
 * The mailbox (GET /ops/messages): the customer messages, newest first, a page at a time: to whom,
 * kind, language, status with the server's last reply, when written and when sent. Filters are
 * plain links (status, kind, customer), each keeping the others; without SMTP a banner says that
 * messages are kept here rather than sent.
 */

export interface MailboxFilter {
  status?: MessageStatus | undefined;
  kind?: MessageKind | undefined;
  customer?: string | undefined;
  /** The last message of the previous page. */
  after?: string | undefined;
}

export interface MailboxView {
  page: MessagePage;
  filter: MailboxFilter;
  session: OpsSession;
  /** Whether SMTP_URL is set. */
  smtp: boolean;
}

export const NO_SMTP_BANNER =
  "No SMTP server is configured (SMTP_URL): messages are rendered and kept here, not sent.";

export const at = (date: Date | null) => (date ? date.toISOString().replace("T", " ").slice(0, 19) : "–");

/** The mailbox with these filters; a new filter starts again from the newest message. */
export function mailboxHref(filter: MailboxFilter): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) query.set(name, value);
  const text = query.toString();
  return text ? `/ops/messages?${text}` : "/ops/messages";
}

function choices<T extends string>(
  label: string,
  id: string,
  values: readonly T[],
  current: T | undefined,
  hrefOf: (value: T | undefined) => string,
): Raw {
  const link = (value: T | undefined) =>
    html`<a class="${value === current ? "on" : ""}" href="${hrefOf(value)}">${value ?? "all"}</a>`;
  return html`<div class="presets" id="${id}">${label} ${link(undefined)}${values.map(link)}</div>`;
}

function filters({ filter }: MailboxView): Raw {
  const base = { ...filter, after: undefined };
  const customer = filter.customer
    ? html`<span id="customer-filter">customer <code>${filter.customer}</code> <a href="${mailboxHref({ ...base, customer: undefined })}">all customers</a></span>`
    : "";
  return html`<div class="picker filters">
${choices("status", "status-filter", MESSAGE_STATUSES, filter.status, (status) => mailboxHref({ ...base, status }))}
${choices("kind", "kind-filter", MESSAGE_KINDS, filter.kind, (kind) => mailboxHref({ ...base, kind }))}
${customer}
</div>`;
}

function row(message: MessageSummary, filter: MailboxFilter): Raw {
  const customer = mailboxHref({ ...filter, after: undefined, customer: message.customerId });
  return html`<tr data-message="${message.id}">
<td><a href="/ops/messages/${message.id}">${at(message.createdAt)}</a></td>
<td><a href="${customer}" title="this customer's messages"><bdi>${message.toAddress}</bdi></a></td>
<td>${message.kind}${message.resendOf ? html` <span class="muted">(resend)</span>` : ""}</td>
<td>${message.language}</td>
<td><span class="status-${message.status}">${message.status}</span>${message.lastResponse ? html`<div class="muted clip" title="${message.lastResponse}">${message.lastResponse}</div>` : ""}</td>
<td>${at(message.sentAt)}</td>
</tr>`;
}

export function mailboxPage(view: MailboxView): string {
  const { page, filter, session, smtp } = view;
  const rows = page.messages.map((message) => row(message, filter));
  const newest = filter.after
    ? html`<a href="${mailboxHref({ ...filter, after: undefined })}">← Newest</a>`
    : "";
  const older = page.nextCursor
    ? html`<a id="older" href="${mailboxHref({ ...filter, after: page.nextCursor })}">Older →</a>`
    : "";
  return layout(
    { title: "Mailbox", session },
    html`${smtp ? "" : html`<p class="banner" id="no-smtp" role="status">${NO_SMTP_BANNER}</p>`}
<h1>Mailbox</h1>
${filters(view)}
<table id="messages"><thead><tr><th>Created</th><th>To</th><th>Kind</th><th>Language</th><th>Status</th><th>Sent</th></tr></thead>
<tbody>${rows.length > 0 ? rows : html`<tr><td colspan="6" class="muted">No messages.</td></tr>`}</tbody></table>
<p class="paging">${newest} ${older}</p>`,
  );
}
