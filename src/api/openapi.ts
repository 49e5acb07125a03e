import fastifySwagger, { type SwaggerTransform, type SwaggerTransformObject } from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { webhookPathItems } from "./openapi-webhooks.js";

/**
 * The OpenAPI document of the merchant API, generated from the routes' zod schemas, with the
 * webhooks the engine sends (openapi-webhooks.ts), at /openapi.json, and Swagger UI at /docs. The
 * UI's assets come from the @fastify/swagger-ui package itself (nothing from a CDN) and its
 * validator badge is off, so /docs works offline.
 * Both are public: the document describes the API, it grants nothing.
 */

export const API_PREFIX = "/v1";
export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PATH = "/docs";

/**
 * Only merchant routes are documented. The rest of the server (health, the gateway's callbacks,
 * the docs themselves) is hidden, and its schemas, which need not be zod, are never converted.
 */
const merchantRoutesOnly: SwaggerTransform = (document) => {
  const { url } = document;
  if (url === API_PREFIX || url.startsWith(`${API_PREFIX}/`)) return jsonSchemaTransform(document);
  return { schema: { hide: true }, url };
};

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null;

/**
 * @fastify/swagger marks every request body required, but the actions (pause, resume, cancel, …)
 * take none: a body whose schema admits null is made optional in the document.
 */
const optionalEmptyBodies: SwaggerTransformObject = (documentObject) => {
  const document = jsonSchemaTransformObject(documentObject);
  for (const item of Object.values(("paths" in document && document.paths) || {})) {
    for (const operation of Object.values(isObject(item) ? item : {})) {
      const body = isObject(operation) ? operation.requestBody : undefined;
      if (!isObject(body) || !isObject(body.content)) continue;
      const json = body.content["application/json"];
      const schema = isObject(json) ? json.schema : undefined;
      const variants = isObject(schema) && Array.isArray(schema.anyOf) ? schema.anyOf : [];
      if (variants.some((variant) => isObject(variant) && variant.type === "null")) body.required = false;
    }
  }
  return document;
};

/**
 * The document's one server: the public URL's path alone ("/", or a proxy's prefix such as
 * "/billing"), which a client resolves against the address it loaded the document from. An
 * absolute URL broke Swagger UI's "Try it out" whenever the page was opened at another address
 * than the one named (the banner's http://127.0.0.1:PORT against http://localhost:PORT): a
 * cross-origin call the API does not allow.
 */
export const apiServerUrl = (publicUrl: string): string => new URL(publicUrl).pathname;

export function registerOpenApi(app: FastifyInstance, publicUrl: string): void {
  app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "billing-engine merchant API",
        version: "1",
        description:
          "Plans, customers, subscriptions, charges, refunds, receipts and credit notes, invoices, dunning, customer messages and webhook endpoints. " +
          "Authenticate with `Authorization: Bearer <API key>`. Errors are RFC 9457 problem+json. " +
          "POST requests accept an `Idempotency-Key` header (replayed for 24 hours). " +
          "`webhooks` lists the signed events POSTed to your webhook endpoints.",
      },
      servers: [
        {
          url: apiServerUrl(publicUrl),
          description: "This engine, at the address this document was loaded from",
        },
      ],
      components: {
        securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "A bk_… API key" } },
      },
      security: [{ apiKey: [] }],
      webhooks: webhookPathItems(),
    },
    transform: merchantRoutesOnly,
    transformObject: optionalEmptyBodies,
  });
  app.register(fastifySwaggerUi, { routePrefix: DOCS_PATH, validatorUrl: false });
  app.get(OPENAPI_PATH, async () => app.swagger());
}
