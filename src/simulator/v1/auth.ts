import type { FastifyRequest } from "fastify";
import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { SimReply } from "../types.js";
import { unauthorized, v1Error } from "./errors.js";

export type Authenticated = { merchant: MerchantAccount } | { failure: SimReply };

/** The `api_key` header of checkout, refund and Authorize: it must name a merchant. */
export function authenticateApiKey(core: SimulatorCore, request: FastifyRequest): Authenticated {
  const key = request.headers.api_key;
  if (typeof key !== "string" || key.trim() === "")
    return { failure: unauthorized("Unauthorized: api_key header missing") };
  const merchant = core.merchants.find(key);
  return merchant ? { merchant } : { failure: unauthorized("Unauthorized: unknown api_key") };
}

/** `Authorization: Bearer <value>` of invoices and products: issued by Authorize and not yet expired. */
export function authenticateBearer(core: SimulatorCore, request: FastifyRequest): Authenticated {
  const header = request.headers.authorization;
  const match = typeof header === "string" ? /^bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return { failure: unauthorized("Unauthorized: bearer token missing") };
  const check = core.bearers.check(match[1]!, core.now());
  if ("problem" in check) return { failure: unauthorized(check.problem) };
  const merchant = core.merchants.byMerchantId(check.merchantId);
  return merchant ? { merchant } : { failure: unauthorized("Unauthorized: unknown bearer token") };
}

/** The v1 operations with a body require `Content-Type: application/json`. */
export function requireJson(request: FastifyRequest): SimReply | undefined {
  const type = request.headers["content-type"] ?? "";
  return /^application\/([\w.+-]+\+)?json\b/i.test(type)
    ? undefined
    : v1Error(415, "Unsupported Media Type: Content-Type must be application/json");
}
