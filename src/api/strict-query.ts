import type { RouteOptions } from "fastify";
import { z } from "zod";

/**
 * Rule: a /v1 route refuses every query parameter it does not document (400, each one named,
 * location "query"). An ignored parameter is not harmless: `GET /v1/charges?customer_id=…` has no
 * such filter, so it listed every charge, and a script refunding "this customer's charges" acted
 * on all of them.
 *
 * Applied once, as the /v1 scope's onRoute hook, so no route can forget it: a route's querystring
 * schema is made strict, and a route without one gets a strict empty one. The routes keep writing
 * plain z.object schemas; the OpenAPI document reads the same schema object, so what it lists is
 * exactly what is accepted.
 */

const NO_QUERY = z.strictObject({});

export function strictQuery(route: RouteOptions): void {
  const querystring = route.schema?.querystring;
  if (querystring === undefined) {
    route.schema = { ...route.schema, querystring: NO_QUERY };
    return;
  }
  // Anything else (a transform, a union) could not be made strict here: fail at startup, not
  // silently accept unknown parameters on that route.
  if (!(querystring instanceof z.ZodObject)) {
    throw new TypeError(`${route.method} ${route.url}: the querystring schema must be a zod object`);
  }
  route.schema = { ...route.schema, querystring: querystring.strict() };
}
