import type { ControllableClock } from "../clock/index.js";
import { createSimulatorApp } from "./app.js";
import type { SimulatorCore, SimulatorOptions } from "./core.js";
import type { MerchantAccount } from "./merchants/merchant.js";
import type { RateCounters } from "./rate/rate-limits.js";

export interface StartSimulatorOptions extends SimulatorOptions {
  /** 0 (the default) picks any free port. */
  port?: number;
  /** 127.0.0.1 by default. */
  host?: string;
}

export interface RunningSimulator {
  /** Base URL of both interfaces, the checkout pages and /_sim. */
  url: string;
  defaultApiKey: string;
  clock: ControllableClock;
  /**
   * Invoice ids handed out from now on are above `id`: for a client that still holds ids from a
   * simulator whose state was lost, since a gateway never reissues an invoice id.
   */
  skipInvoiceIdsThrough(id: number): void;
  /** A merchant's API calls (the default merchant's without a key) since its counters were reset. */
  rateCounters(apiKey?: string): RateCounters;
  /** Zeroes those counters; calls still in the window keep limiting. */
  resetRateCounters(apiKey?: string): void;
  close(): Promise<void>;
}

/** Starts the simulator on host:port (127.0.0.1 and any free port by default). */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const { app, core } = createSimulatorApp(options);
  const host = options.host ?? "127.0.0.1";
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const url = `http://${displayHost(host)}:${port}`;
  core.publicUrl = (options.publicUrl ?? url).replace(/\/+$/, "");
  let closing: Promise<void> | undefined;
  return {
    url,
    defaultApiKey: core.merchants.defaultApiKey,
    clock: core.clock,
    skipInvoiceIdsThrough: (id) => {
      core.invoices.skipIdsThrough(id);
      core.changed();
    },
    rateCounters: (apiKey) => core.rates.counters(merchantOf(core, apiKey)),
    resetRateCounters: (apiKey) => core.rates.resetCounters(merchantOf(core, apiKey)),
    close: () => {
      closing ??= app.close();
      return closing;
    },
  };
}

function merchantOf(core: SimulatorCore, apiKey: string | undefined): MerchantAccount {
  if (apiKey === undefined) return core.merchants.defaultMerchant;
  const merchant = core.merchants.find(apiKey);
  if (!merchant) throw new RangeError(`no merchant has the api_key ${apiKey}`);
  return merchant;
}

/** A wildcard address is reached through loopback; IPv6 literals need brackets in a URL. */
function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
