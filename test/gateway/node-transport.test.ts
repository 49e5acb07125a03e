import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTransport, type GatewayRequest } from "../../src/gateway/http.js";
import { GatewayUnavailableError } from "../../src/gateway/index.js";
import { createNodeSender, type NodeSender } from "../../src/gateway/node-transport.js";
import { silentLogger } from "../../src/logger/index.js";
import { failure } from "./support/failure.js";

/** Long enough for a local request on a loaded machine, short for a test. */
const TIMEOUT_MS = 300;
const TOKEN = "ab+c/d=e==";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  text: string;
}

type Handler = (request: IncomingMessage, response: ServerResponse, text: string) => void;

let server: Server;
let base: string;
let handler: Handler;
let connections = 0;
const seen: Seen[] = [];
const sockets = new Set<Socket>();
let sender: NodeSender;

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, text });
      handler(request, response, text);
    });
  });
  server.on("connection", (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  sender?.close();
  for (const socket of sockets) socket.destroy();
  seen.length = 0;
  connections = 0;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function transport(options: { maxSockets?: number } = {}) {
  sender = createNodeSender(options);
  return createTransport({ send: sender.send, timeoutMs: TIMEOUT_MS, logger: silentLogger });
}

function json(status: number, value: unknown): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(value));
  };
}

const getNewPayment = (url = `${base}/v3/GetnewPayment`): GatewayRequest => ({
  operation: "legacy.getNewPayment",
  method: "POST",
  url: new URL(url),
  body: { encoding: "form", value: { token: TOKEN, amount: "10.00" } },
});

describe("replies", () => {
  it("returns a 200 JSON reply parsed, with the request as sent", async () => {
    handler = json(200, { result: 1, name: "مرحبا" });
    const reply = await transport()({
      operation: "v1.refund",
      method: "POST",
      url: new URL(`${base}/v1/payments/refund?x=1`),
      headers: { api_key: "k" },
      body: { encoding: "json", value: { amount: 5 } },
    });
    expect(reply).toMatchObject({ status: 200, json: true, body: { result: 1, name: "مرحبا" } });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/v1/payments/refund?x=1", text: '{"amount":5}' });
    expect(seen[0]?.headers).toMatchObject({
      api_key: "k",
      accept: "application/json",
      "content-type": "application/json",
      "content-length": "12",
    });
  });

  it("delivers a form body intact, card tokens with + / = included", async () => {
    handler = json(200, { result: 1 });
    await transport()(getNewPayment());
    const form = new URLSearchParams(seen[0]?.text);
    expect(form.get("token")).toBe(TOKEN);
    expect(form.get("amount")).toBe("10.00");
    expect(seen[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("sends a GET without a body", async () => {
    handler = json(200, { ok: true });
    const reply = await transport()({
      operation: "v1.listProducts",
      method: "GET",
      url: new URL(`${base}/v1/products`),
    });
    expect(reply.status).toBe(200);
    expect(seen[0]).toMatchObject({ method: "GET", text: "" });
  });

  it("returns a redirect as it is and does not follow it", async () => {
    handler = (_request, response) => {
      response.writeHead(302, { location: `${base}/elsewhere` });
      response.end();
    };
    const reply = await transport()(getNewPayment());
    expect(reply).toMatchObject({ status: 302, json: false });
    expect(seen.map((request) => request.url)).toEqual(["/v3/GetnewPayment"]);
  });
});

describe("failures without a reply", () => {
  it("times out a server that never answers: sent, outcome unknown, within the timeout", async () => {
    handler = () => {};
    const started = performance.now();
    const error = await failure(transport()(getNewPayment()));
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "timeout", retryable: true, outcomeUnknown: true });
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(ms).toBeLessThan(TIMEOUT_MS + 500);
    expect(seen).toHaveLength(1);
  });

  it("times out a reply that stops halfway: sent, outcome unknown", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"result":');
    };
    const error = await failure(transport()(getNewPayment()));
    expect(error).toMatchObject({ code: "timeout", outcomeUnknown: true });
  });

  it("times out a reused keep-alive socket as sent, outcome unknown", async () => {
    handler = json(200, { result: 1 });
    const send = transport();
    await send(getNewPayment());
    handler = () => {};
    const error = await failure(send(getNewPayment()));
    expect(error).toMatchObject({ code: "timeout", outcomeUnknown: true });
    expect(connections).toBe(1);
  });

  it("knows a refused connection reached nobody", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(transport()(getNewPayment(`http://127.0.0.1:${port}/v3/GetnewPayment`)));
    expect(error).toBeInstanceOf(GatewayUnavailableError);
    expect(error).toMatchObject({ code: "network_error", retryable: true, outcomeUnknown: false });
    expect(error.description).toContain("ECONNREFUSED");
  });

  it("knows a request still waiting for a socket at the timeout reached nobody", async () => {
    handler = () => {};
    transport({ maxSockets: 1 });
    // The first call holds the only socket well past the second's timeout, so the second is still
    // queued in the agent when its timer fires, however late the loaded machine runs it.
    const holding = createTransport({ send: sender.send, timeoutMs: 60_000, logger: silentLogger });
    const first = failure(holding(getNewPayment()));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    const queued = await failure(
      createTransport({ send: sender.send, timeoutMs: TIMEOUT_MS, logger: silentLogger })(getNewPayment()),
    );
    expect(queued).toMatchObject({ code: "network_error", retryable: true, outcomeUnknown: false });
    expect(queued.description).toContain("GATEWAY_CONNECT_TIMEOUT");
    expect(seen).toHaveLength(1);
    for (const socket of sockets) socket.destroy();
    expect(await first).toMatchObject({ outcomeUnknown: true });
  });

  it("counts a socket destroyed after the request was read as sent, outcome unknown", async () => {
    handler = (request) => request.socket.destroy();
    const error = await failure(transport()(getNewPayment()));
    expect(error).toMatchObject({ code: "network_error", retryable: true, outcomeUnknown: true });
    expect(error.description).toContain("ECONNRESET");
    expect(seen).toHaveLength(1);
  });

  it("counts a reply cut short as sent, outcome unknown", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      response.write('{"result":', () => response.socket?.destroy());
    };
    const error = await failure(transport()(getNewPayment()));
    expect(error).toMatchObject({ code: "network_error", outcomeUnknown: true });
  });

  it("counts a reset of a reused keep-alive socket as sent, outcome unknown", async () => {
    handler = json(200, { result: 1 });
    const send = transport();
    await send(getNewPayment());
    handler = (request) => request.socket.destroy();
    const error = await failure(send(getNewPayment()));
    expect(error).toMatchObject({ code: "network_error", outcomeUnknown: true });
    expect(connections).toBe(1);
  });
});

describe("keep-alive", () => {
  it("sends 50 sequential calls over at most 2 sockets", async () => {
    handler = json(200, { result: 1 });
    const send = transport();
    for (let i = 0; i < 50; i++) expect((await send(getNewPayment())).status).toBe(200);
    expect(seen).toHaveLength(50);
    expect(connections).toBeLessThanOrEqual(2);
  });

  it("opens no more than maxSockets sockets for concurrent calls", async () => {
    handler = json(200, { result: 1 });
    const send = transport({ maxSockets: 4 });
    await Promise.all(Array.from({ length: 40 }, () => send(getNewPayment())));
    expect(seen).toHaveLength(40);
    expect(connections).toBeLessThanOrEqual(4);
  });
});
