import type { Config } from "./env.js";

/** Where customers and the gateway reach the HTTP server: PUBLIC_URL, else this machine's PORT. */
export function publicUrlOf(config: Pick<Config, "PUBLIC_URL" | "PORT">): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}
