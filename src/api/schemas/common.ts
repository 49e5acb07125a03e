import { z } from "zod";
import { problemSchema } from "../../problems/index.js";
import { PROBLEM_CONTENT_TYPE } from "../problem.js";

/**
 * Shapes shared by every resource: money, timestamps, ids, list pages and error replies. Money and
 * timestamps live in src/resources, which webhooks share; they are re-exported here for the routes.
 */
export { iso, moneySchema, presentMoney, timestamp } from "../../resources/shapes.js";

export const idParams = z.object({ id: z.uuid() });

/**
 * Body of an action that takes no input: nothing, or an empty object. Fastify hands a POST
 * without a body to validation as null, hence nullish.
 */
export const emptyBody = z.strictObject({}).nullish();

/** Cursor paging, oldest first: pass the id of the last item seen as starting_after for the next page. */
const LIMIT_ERROR = { error: "limit must be a whole number from 1 to 100" };

export const pageLimit = z.coerce
  .number(LIMIT_ERROR)
  .int(LIMIT_ERROR)
  .min(1, LIMIT_ERROR)
  .max(100, LIMIT_ERROR)
  .default(50)
  .describe("Page size, 1 to 100");

export const pageQuery = z.object({
  limit: pageLimit,
  starting_after: z
    .uuid({ error: "starting_after must be the id of an item" })
    .optional()
    .describe("Id of the last item of the previous page"),
});

export type PageQuery = z.infer<typeof pageQuery>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), has_more: z.boolean() });
}

const problemReply = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: problemSchema } },
});

/** Error replies every route may give, for the OpenAPI document. */
export const problemReplies = {
  400: problemReply("The request is invalid; errors names each offending field"),
  401: problemReply("Missing, unknown or revoked API key"),
  404: problemReply("No such resource"),
  409: problemReply("Conflict, or an Idempotency-Key reused or still in progress"),
  422: problemReply("Refused by the domain rules, such as an illegal state transition"),
} as const;
