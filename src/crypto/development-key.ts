import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config/index.js";
import { type TokenVault, vaultFromConfig } from "./token-vault.js";

/**
 * The development token key: outside production, without TOKEN_ENCRYPTION_KEY, the engine keeps a
 * key in TOKEN_DEV_KEY_FILE (app/bootstrap.ts makes it) and seals cards and signs payment links
 * with it under key id "dev". These read it the same way for every process that needs it.
 */
/** Key id of a generated development key, so rows sealed with it are never mistaken for a real key's. */
const DEV_KEY_ID = "dev";

/** The file's key as written (trimmed, not checked), or null when there is no file. */
export async function readDevelopmentKey(file: string): Promise<string | null> {
  try {
    return (await readFile(path.resolve(file), "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The vault over a development key read with readDevelopmentKey. */
export function developmentVault(config: Config, key: string): TokenVault {
  return vaultFromConfig({ ...config, TOKEN_ENCRYPTION_KEY: key, TOKEN_ENCRYPTION_KEY_ID: DEV_KEY_ID });
}
