import { createTransport } from "nodemailer";

/**
 * Sending over SMTP: one pooled nodemailer transport per process, made from SMTP_URL (smtp:// or
 * smtps://, credentials in the URL). Every try is reduced to what a message records:
 * - accepted: the server took the message; its reply (queue id and all) is kept;
 * - retry: a 4xx reply, a 503, or no usable server (refused connection, timeout, TLS trouble, a
 *   login refused even with a 5xx, which is about our account and not this message): the same
 *   message can go through later, so it is tried again on the message's own schedule
 *   (nodemailer's requeueing is off: one schedule, in Postgres);
 * - refused: a 5xx reply, a refusal for good (550 mailbox unavailable): trying again would only
 *   be refused again.
 * It never throws for anything the server or the network does. SMTP_URL holds the password, so
 * only `server` (host and port) is ever logged or shown.
 *
 * A send has a deadline shorter than SHUTDOWN_TIMEOUT_MS's default (30 s), so a graceful stop lets
 * every send in hand finish and record its outcome; close() lets a delivery in progress finish.
 */

export interface OutgoingMail {
  from: { name: string; address: string };
  replyTo: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** RFC 5322 Message-ID, angle brackets included. */
  messageId: string;
  headers: Record<string, string>;
}

export type SendResult =
  | { outcome: "accepted"; response: string }
  | { outcome: "retry"; response: string }
  | { outcome: "refused"; response: string };

export interface MailTransport {
  /** host:port of the SMTP server, the one thing about it that may be logged. */
  readonly server: string;
  send(mail: OutgoingMail): Promise<SendResult>;
  close(): Promise<void>;
}

/** Connecting, the greeting and any silence from the server. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
/** The whole send, waiting for a pooled connection included. */
export const SEND_DEADLINE_MS = 25_000;

/** host:port without credentials; nodemailer's default ports when the URL names none. */
export function smtpServerOf(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.hostname}:${url.port || (url.protocol === "smtps:" ? "465" : "587")}`;
}

interface SmtpFailure {
  code?: string;
  message?: string;
  response?: string;
  responseCode?: number;
  /** Set by nodemailer with responseCode: a 5xx other than 503. */
  permanent?: boolean;
}

function failureResult(error: unknown): SendResult {
  const failure: SmtpFailure = typeof error === "object" && error !== null ? error : {};
  const response = failure.response ?? failure.message ?? String(error);
  const login = failure.code === "EAUTH" || failure.code === "ENOAUTH";
  const refused = typeof failure.responseCode === "number" && failure.permanent === true && !login;
  return { outcome: refused ? "refused" : "retry", response };
}

export function smtpTransport(smtpUrl: string): MailTransport {
  const pool = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 5,
    maxRequeues: 0,
    ...TIMEOUTS,
  });
  return {
    server: smtpServerOf(smtpUrl),
    async send(mail) {
      try {
        const info = await pool.sendMail({
          from: mail.from,
          ...(mail.replyTo === null ? {} : { replyTo: mail.replyTo }),
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: mail.headers,
          signal: AbortSignal.timeout(SEND_DEADLINE_MS),
        });
        return { outcome: "accepted", response: info.response };
      } catch (error) {
        return failureResult(error);
      }
    },
    async close() {
      pool.close();
    },
  };
}
