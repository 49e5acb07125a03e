import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { type AllowList, addressRefusal, isHostAllowListed, parseIp, urlHost } from "./address-policy.js";

/**
 * Applies the address policy (address-policy.ts) to a webhook URL, twice:
 * - when an endpoint is registered, to its host and to every address the host resolves to, so a
 *   merchant learns at once that the URL cannot be used;
 * - when a delivery connects, inside the connection's own DNS lookup, so the address vetted is
 *   the address connected to. A name that resolved to a public address at registration and to
 *   127.0.0.1 now (DNS rebinding) is refused at this second check.
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name; the system resolver (getaddrinfo), as connections use. */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A connection refused by the address policy; its message is what the delivery records. */
export class DestinationRefusedError extends Error {
  constructor(reason: string) {
    super(`destination refused: ${reason}`);
    this.name = "DestinationRefusedError";
  }
}

/** Why the URL's host may not receive webhooks, or null when it may. Resolves host names. */
export async function vetDestination(
  url: string,
  allow: AllowList,
  resolve: ResolveHost = systemResolve,
): Promise<string | null> {
  const host = urlHost(url);
  if (isHostAllowListed(host, allow)) return null;
  if (parseIp(host)) return addressRefusal(host, host, allow);
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "lookup failed";
    return `host ${host} could not be resolved (${code})`;
  }
  if (addresses.length === 0) return `host ${host} could not be resolved (no addresses)`;
  for (const { address } of addresses) {
    const refusal = addressRefusal(host, address, allow);
    if (refusal) return refusal;
  }
  return null;
}

/**
 * The refusal of a URL whose host is an IP address. A connection to an address does no lookup,
 * so the guarded lookup below never sees it: it is checked before connecting instead.
 */
export function literalAddressRefusal(url: string, allow: AllowList): string | null {
  const host = urlHost(url);
  return parseIp(host) ? addressRefusal(host, host, allow) : null;
}

/**
 * A `lookup` for net/http that resolves with `resolve` and fails the connection with a
 * DestinationRefusedError when any address is refused, rather than quietly picking another.
 */
export function guardedLookup(allow: AllowList, resolve: ResolveHost = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = (found: ResolvedAddress) => !options.family || found.family === options.family;
    resolve(hostname).then(
      (all) => {
        const addresses = all.filter(wanted);
        for (const { address } of addresses) {
          const refusal = addressRefusal(hostname, address, allow);
          if (refusal) return callback(new DestinationRefusedError(refusal), "", 0);
        }
        const [first] = addresses;
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = "ENOTFOUND";
          return callback(error, "", 0);
        }
        // With `all` (Node asks for it when it tries several addresses) the callback takes a list.
        if (options.all)
          return (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses.slice());
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
