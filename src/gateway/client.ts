import { z } from "zod";
import { type Clock, systemClock } from "../clock/index.js";
import { type Logger, silentLogger } from "../logger/index.js";
import { createTransport } from "./http.js";
import { createLegacyClient, type LegacyClient } from "./legacy-client.js";
import { createNodeSender, type NodeSender } from "./node-transport.js";
import { createV1Client, type V1Client } from "./v1-client.js";

export interface GatewayClientOptions {
  /** `{base_url}` of the v1 interface. */
  baseUrl: string;
  /** `{legacy_url}` of the v3 interface. */
  legacyUrl: string;
  /** The merchant API key (a GUID): `api_key` header on v1, body field `token` on v3. */
  apiKey: string;
  /** A fixed bearer value for invoices and products; Authorize is then never called. */
  accessToken?: string;
  /** Path of the Authorize operation; default "/v1/Authorization/Authorize". */
  authorizePath?: string;
  /** How v3 bodies are sent; default "form" (application/x-www-form-urlencoded). */
  legacyEncoding?: "form" | "json";
  /** Per-attempt timeout; default 15000. */
  timeoutMs?: number;
  logger?: Logger;
  /** Sends with this fetch instead of node:http (tests); default node:http with a keep-alive agent. */
  fetch?: typeof fetch;
  /** Keep-alive sockets open at once per gateway origin (node:http only); default 256. */
  maxSockets?: number;
  /** Extra attempts for read-only calls, 0 to 2; default 2. Money-moving calls are never repeated. */
  readRetries?: number;
  /** Backoff before the first read retry (doubles per retry, full jitter); default 100. */
  retryBaseDelayMs?: number;
  /** Upper bound of any backoff delay; default 1000. */
  retryMaxDelayMs?: number;
  /** Time source for bearer expiry; default the system clock. */
  clock?: Clock;
}

export interface GatewayClient {
  v1: V1Client;
  legacy: LegacyClient;
  /** `{base_url}` of the v1 interface, for the health check's reachability probe. */
  readonly baseUrl: string;
  /**
   * Closes the idle keep-alive sockets. Optional to call: idle sockets are unref'd and expire on
   * their own, so they never hold a process open.
   */
  close(): void;
}

const httpUrl = z.url({ protocol: /^https?$/ });

const optionsSchema = z.object({
  baseUrl: httpUrl,
  legacyUrl: httpUrl,
  // The GUID format is the configuration's concern; here it only has to be there.
  apiKey: z.string().trim().min(1),
  accessToken: z.string().trim().min(1).optional(),
  authorizePath: z.string().startsWith("/").default("/v1/Authorization/Authorize"),
  legacyEncoding: z.enum(["form", "json"]).default("form"),
  timeoutMs: z.number().int().positive().default(15_000),
  readRetries: z.number().int().min(0).max(2).default(2),
  retryBaseDelayMs: z.number().int().min(0).default(100),
  retryMaxDelayMs: z.number().int().min(0).default(1_000),
  maxSockets: z.number().int().positive().default(256),
});

/** Builds the typed client for both gateway interfaces; bad options throw a TypeError at once. */
export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new TypeError(`invalid gateway client options:\n${z.prettifyError(parsed.error)}`);
  }
  const settings = parsed.data;
  // One agent per client: its sockets are this gateway's, and close() ends only them.
  const sender: NodeSender | undefined =
    options.fetch === undefined ? createNodeSender({ maxSockets: settings.maxSockets }) : undefined;
  const transport = createTransport({
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(sender === undefined ? {} : { send: sender.send }),
    timeoutMs: settings.timeoutMs,
    logger: options.logger ?? silentLogger,
  });
  const retry = {
    retries: settings.readRetries,
    baseMs: settings.retryBaseDelayMs,
    capMs: settings.retryMaxDelayMs,
  };
  return {
    baseUrl: settings.baseUrl,
    close: () => sender?.close(),
    v1: createV1Client({
      transport,
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      ...(settings.accessToken === undefined ? {} : { accessToken: settings.accessToken }),
      authorizePath: settings.authorizePath,
      clock: options.clock ?? systemClock,
      retry,
    }),
    legacy: createLegacyClient({
      transport,
      legacyUrl: settings.legacyUrl,
      apiKey: settings.apiKey,
      encoding: settings.legacyEncoding,
      retry,
    }),
  };
}
