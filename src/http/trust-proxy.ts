import type { Config } from "../config/index.js";

type TrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count trusts that many proxies in front of the server,
 * whoever they are (what it means for Express and proxy-addr): only right when nothing else can
 * reach the port. Fastify given a bare number trusts none, so the count becomes a function.
 */
export function trustProxyOption(setting: Config["TRUST_PROXY"]): TrustProxy {
  if (typeof setting !== "number") return setting;
  return (_address, hop) => hop < setting;
}
