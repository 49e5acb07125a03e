/**
 * Customer messages rendered from templates, in English and Arabic: pure apart from reading the
 * template files. The outbox worker hands a message's facts to render() and sends what comes back.
 */
export { formatAmount } from "./amount.js";
export {
  type Amount,
  MESSAGE_KINDS,
  MESSAGE_LANGUAGES,
  type Merchant,
  type MessageKind,
  type MessageLanguage,
  type MessageModel,
  type ReceiptLine,
  type RenderedMessage,
  type RenderInput,
} from "./model.js";
export { createMessageRenderer, type MessageRenderer } from "./renderer.js";
