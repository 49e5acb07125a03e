import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

/** The path of a URL without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Fastify's request log lines, without the query string: the gateway puts the card token in the
 * query of the success URL, and a log line is the easiest place for it to leak. One line per
 * request, when it completes.
 */
export class PathOnlyLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      path: pathOf(request.url),
      statusCode: reply.statusCode,
      ms: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, path: pathOf(request.url), err: error };
    if (reply.statusCode >= 500) reply.log.error(line, "request failed");
    else reply.log.info(line, error.message);
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.info({ method: request.method, path: pathOf(request.url) }, "route not found");
  }
}
