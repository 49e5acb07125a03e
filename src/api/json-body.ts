import { errorCodes, type FastifyRequest } from "fastify";
import { ApiProblem, type FieldError, validationFailed } from "../problems/index.js";

/**
 * Rule: a /v1 JSON body is read as UTF-8 or refused, and a key that could reach an object's
 * prototype (`__proto__`, or `constructor` holding `prototype`) is refused by name, with its path.
 * An empty body is no body, whatever its content type says.
 *
 * Fastify's own parser decodes the bytes leniently, so text from a Latin-1 client was stored as
 * replacement characters (201), and it answers a prototype key as "not valid JSON", naming nothing.
 * This parser, for the /v1 scope only (the portal's and back office's forms keep theirs), reads the
 * raw bytes with a fatal decoder and names each offending key; malformed JSON is refused with
 * Fastify's own error, as before.
 *
 * Many clients (fetch wrappers, Swagger UI, `curl -H 'content-type: application/json' -X POST`)
 * send the JSON content type on every request, bodiless ones included. Fastify refused those as
 * "Body cannot be empty", even on actions whose body is optional; an empty body is now handed on
 * as null, exactly as a request without one, so each route's schema decides: an optional body
 * passes, a required one is refused naming `body` (errors.ts).
 */

const utf8 = new TextDecoder("utf-8", { fatal: true });

export async function parseJsonBody(_request: FastifyRequest, body: Buffer): Promise<unknown> {
  if (body.length === 0) return null;
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ApiProblem(400, "invalid_utf8", "Body is not UTF-8", "the body is not valid UTF-8", {
      errors: [{ field: "body", location: "body", message: "the body is not valid UTF-8" }],
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  const refused = mayNamePrototype(text) ? prototypeKeys(value) : [];
  if (refused.length > 0) throw validationFailed(refused);
  return value;
}

/**
 * Most bodies cannot hold such a key, and the text shows it: neither word appears, nor an escape
 * (`"\u005f_proto__"` is the same key). Only the others are walked.
 */
const mayNamePrototype = (text: string): boolean =>
  text.includes("__proto__") || text.includes("prototype") || text.includes("\\u");

/** A value met while walking the body, and how it was reached (to name it only when refused). */
interface Visit {
  readonly value: unknown;
  /** Its key in its parent object; null for the body itself and for array items. */
  readonly key: string | null;
  readonly name: string;
  readonly parent: Visit | null;
}

const pathOf = (visit: Visit): string => {
  const names: string[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) names.push(at.name);
  return names.reverse().join(".");
};

const refusal = (field: string, key: string): FieldError => ({
  field,
  location: "body",
  message: `the key ${key} is not accepted`,
});

const holdsPrototype = (value: unknown): boolean =>
  value !== null && typeof value === "object" && Object.hasOwn(value, "prototype");

/**
 * Every prototype key, in document order. JSON.parse makes `__proto__` a plain own key, harmless
 * until something copies it by assignment; refusing it here means no handler has to care. The
 * walk keeps its own stack: a deeply nested body must not overflow the call stack.
 */
function prototypeKeys(body: unknown): FieldError[] {
  const found: FieldError[] = [];
  const stack: Visit[] = [{ value: body, key: null, name: "", parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value, key } = visit;
    if (key === "__proto__") found.push(refusal(pathOf(visit), "__proto__"));
    if (key === "constructor" && holdsPrototype(value)) {
      found.push(refusal(`${pathOf(visit)}.prototype`, "constructor.prototype"));
    }
    if (value === null || typeof value !== "object") continue;
    const children: Visit[] = Array.isArray(value)
      ? value.map((item, index) => ({ value: item, key: null, name: String(index), parent: visit }))
      : Object.entries(value).map(([name, item]) => ({ value: item, key: name, name, parent: visit }));
    // Pushed last first, so that they are popped, and reported, in document order.
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index]!);
  }
  return found;
}
