import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { urlToHttpOptions } from "node:url";

/**
 * The gateway's wire on node:http: one request through a keep-alive agent, one timer for the whole
 * call (no AbortSignal per call), the reply read as UTF-8 text, redirects returned as they are.
 *
 * Its rule: a failure says "not sent" only when the gateway cannot have seen the request. A timeout
 * while no socket was connected yet (DNS, TCP or TLS still under way, or the request queued in the
 * agent behind maxSockets) rejects as a ConnectTimeoutError with code GATEWAY_CONNECT_TIMEOUT,
 * which http.ts counts as not sent; a timeout once connected rejects as a TimeoutError (sent,
 * outcome unknown). Every other failure keeps the system error's code (ECONNREFUSED, ENOTFOUND and
 * EAI_AGAIN happen before a connection and mean not sent; ECONNRESET, EPIPE, a reply cut short mean
 * sent). A reused keep-alive socket that the gateway had closed fails with ECONNRESET and is not
 * retried: it may be indistinguishable from a reset after the request arrived, so it stays "sent".
 */

export interface SendRequest {
  method: string;
  url: URL;
  headers: Readonly<Record<string, string>>;
  body?: string;
  timeoutMs: number;
}

export interface SendReply {
  status: number;
  text: string;
}

/** What the transport needs of the wire; node's by default, fetch's when one is injected. */
export type Send = (request: SendRequest) => Promise<SendReply>;

export interface NodeSender {
  send: Send;
  /** Closes the idle keep-alive sockets; calls still running finish on theirs. */
  close(): void;
}

export interface NodeSenderOptions {
  /** Sockets open at once per origin; default 256 (the charge worker's calls in flight). */
  maxSockets?: number;
}

/** The code of a timeout before any socket was connected: nothing can have reached the gateway. */
export const CONNECT_TIMEOUT_CODE = "GATEWAY_CONNECT_TIMEOUT";

/**
 * Idle sockets are closed after this long (or a second before the server's own Keep-Alive timeout
 * when it announces a shorter one), so that a socket is seldom reused just as the server drops it.
 */
const IDLE_SOCKET_MS = 4_000;

class TransportTimeoutError extends Error {
  readonly code: string;
  constructor(name: "TimeoutError" | "ConnectTimeoutError", code: string, message: string) {
    super(message);
    this.name = name;
    this.code = code;
  }
}

class ReplyCutShortError extends Error {
  readonly code = "ECONNRESET";
  constructor() {
    super("the reply was cut short");
    this.name = "ReplyCutShortError";
  }
}

export function createNodeSender(options: NodeSenderOptions = {}): NodeSender {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 256,
    timeout: IDLE_SOCKET_MS,
    scheduling: "lifo" as const,
  };
  let http: HttpAgent | undefined;
  let https: HttpsAgent | undefined;
  return {
    send(request) {
      if (request.url.protocol === "https:") {
        https ??= new HttpsAgent(agentOptions);
        return sendOn(httpsRequest, https, "secureConnect", request);
      }
      http ??= new HttpAgent(agentOptions);
      return sendOn(httpRequest, http, "connect", request);
    },
    close() {
      http?.destroy();
      https?.destroy();
    },
  };
}

type RequestFn = typeof httpRequest;

function sendOn(
  make: RequestFn,
  agent: HttpAgent,
  connectEvent: "connect" | "secureConnect",
  { method, url, headers, body, timeoutMs }: SendRequest,
): Promise<SendReply> {
  return new Promise<SendReply>((resolve, reject) => {
    let settled = false;
    // True once a socket that can carry the request is connected; until then nothing was sent.
    let connected = false;
    const outgoing: Record<string, string | number> = { "user-agent": "node", ...headers };
    if (body !== undefined) outgoing["content-length"] = Buffer.byteLength(body);
    let req: ClientRequest;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(() => {
      fail(
        connected
          ? new TransportTimeoutError("TimeoutError", "ETIMEDOUT", `no reply within ${timeoutMs} ms`)
          : new TransportTimeoutError(
              "ConnectTimeoutError",
              CONNECT_TIMEOUT_CODE,
              `no connection within ${timeoutMs} ms`,
            ),
      );
      req.destroy();
    }, timeoutMs);
    timer.unref();
    try {
      req = make({ ...urlToHttpOptions(url), method, headers: outgoing, agent });
    } catch (error) {
      fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    req.on("socket", (socket: Socket) => {
      // A reused keep-alive socket is connected; a new one is, once its connect event has fired.
      // A new socket that is somehow no longer connecting is counted as connected (sent), the safe side.
      if (req.reusedSocket || !socket.connecting) connected = true;
      else socket.once(connectEvent, () => (connected = true));
    });
    // Kept for the request's whole life: errors after settling (the destroy above) are expected.
    req.on("error", fail);
    req.on("response", (res: IncomingMessage) => {
      res.setEncoding("utf8");
      let text = "";
      res.on("data", (chunk: string) => (text += chunk));
      res.on("error", fail);
      res.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text });
      });
      res.on("close", () => {
        if (!res.complete) fail(new ReplyCutShortError());
      });
    });
    req.end(body);
  });
}
