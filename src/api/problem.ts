import type { FastifyReply } from "fastify";
import type { ApiProblem } from "../problems/index.js";

/**
 * How the merchant API sends a problem (src/problems): as its own `application/problem+json` text,
 * so no route's success schema ever touches it.
 */

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export function sendProblem(reply: FastifyReply, problem: ApiProblem): FastifyReply {
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problem.toBody()));
}
