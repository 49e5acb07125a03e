/**
 * Customer messages: the e-mails the engine sends the person who pays (receipts, payment notices,
 * refunds, …). The transaction that records an event writes them to the outbox (src/events/
 * customer-outbox.ts); from there this module builds, renders, sends, retries and lists them.
 */
export type { MessageContent } from "./claim.js";
export type { MessageConfig, MessageContext, MessageLinks } from "./context.js";
export { deliverMessage, KEPT_RESPONSE, type MessageOutcome } from "./deliver.js";
export {
  type DispatchMessagesOptions,
  type DispatchMessagesResult,
  dispatchDueMessages,
  type EnqueueMessage,
} from "./dispatch.js";
export {
  DOCUMENT_PATH_KIND,
  DOCUMENTS_PATH,
  documentSignature,
  documentUrl,
  isDocumentSignature,
} from "./document-links.js";
export {
  getMessage,
  type ListMessagesOptions,
  listMessages,
  listMessagesOptions,
  type MessageDetail,
  type MessagePage,
  type MessageSummary,
} from "./list.js";
export { messageAttemptJobId, messageEnqueuer, messageJobProcessor } from "./queue.js";
export { createMessageRenderer, type MessageRenderer } from "./render/index.js";
export { resendMessage } from "./resend.js";
export {
  type MailTransport,
  type OutgoingMail,
  SEND_DEADLINE_MS,
  type SendResult,
  smtpServerOf,
  smtpTransport,
} from "./transport.js";
