import { z } from "zod";
import { MESSAGE_KINDS, MESSAGE_STATUSES } from "../../billing/index.js";
import { messageSchema } from "../../resources/message.js";
import { pageOf, pageQuery } from "./common.js";

/** The message itself is src/resources/message.ts, which the CLI shares; re-exported here. */
export { messageDetailSchema, presentMessage, presentMessageDetail } from "../../resources/message.js";

export const messageListQuery = pageQuery.extend({
  status: z.enum(MESSAGE_STATUSES).optional().describe("Only messages with this status"),
  kind: z.enum(MESSAGE_KINDS).optional().describe("Only messages of this kind"),
});

export const messagePage = pageOf(messageSchema);
