import type { FastifyReply, FastifyRequest } from "fastify";
import type { SimulatorCore } from "../core.js";
import { delay } from "../support/delay.js";
import type { SimReply } from "../types.js";
import { v1Error } from "../v1/errors.js";
import type { FaultOperation } from "./fault-registry.js";

/**
 * Runs one API operation under the fault registered for it, if any:
 * latency waits (real time), then applies and answers; error5xx answers 5xx without applying;
 * hang neither applies nor answers (the socket is destroyed when the simulator closes);
 * malformed applies and answers the first half of the JSON body; apply_then_drop applies and
 * destroys the socket without answering; delayed_apply hands the request body to `hold`, which
 * applies it later on the simulator clock, and destroys the socket without answering;
 * bare_decline_applied applies and answers a processed request (result 1 or 0) with a bare
 * `{result: 0}`, without the transactionid and description a decline documents (a gateway seen
 * answering so for payments it took), while a request refused before processing keeps its reply.
 */
export async function runOperation(
  core: SimulatorCore,
  operation: FaultOperation,
  request: FastifyRequest,
  reply: FastifyReply,
  handle: () => SimReply,
  hold?: (body: unknown, delayMs: number) => void,
): Promise<FastifyReply> {
  const fault = core.faults.take(operation);
  if (!fault) return send(reply, handle());
  switch (fault.kind) {
    case "hang":
      return reply.hijack();
    case "error5xx":
      return send(reply, v1Error(fault.status, "Service Unavailable (simulated fault)"));
    case "latency":
      await delay(fault.latency_ms, core.closing.signal);
      return send(reply, handle());
    case "malformed": {
      const result = handle();
      const text = JSON.stringify(result.body);
      return reply
        .code(result.status)
        .type("application/json; charset=utf-8")
        .send(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
    }
    case "apply_then_drop":
      handle();
      return drop(request, reply, core);
    case "bare_decline_applied": {
      const result = handle();
      const code = (result.body as { result?: unknown } | null)?.result;
      return send(reply, code === 1 || code === 0 ? { status: 200, body: { result: 0 } } : result);
    }
    case "delayed_apply":
      // The fault schema admits delayed_apply only for operations that pass `hold`.
      if (!hold) throw new Error(`${operation} cannot be delayed`);
      hold(request.body, fault.delay_ms);
      return drop(request, reply, core);
  }
}

function drop(request: FastifyRequest, reply: FastifyReply, core: SimulatorCore): FastifyReply {
  // A hijacked reply skips the remaining hooks, the onResponse one that tells a state file to save among them.
  core.changed();
  reply.hijack();
  request.raw.socket.destroy();
  return reply;
}

export function send(reply: FastifyReply, result: SimReply): FastifyReply {
  return reply.code(result.status).send(result.body);
}
