import { type Config, decodeKey, publicUrlOf } from "../config/index.js";
import { developmentVault, readDevelopmentKey, vaultFromConfig } from "../crypto/index.js";
// The module itself, not the resources index: a read loads what it reads.
import type { LinkSigner } from "../resources/charge-rows.js";

/**
 * What signs payment links for a command that has the database alone (`billing charges show`): the
 * token key the engine signs them with, and the URL customers reach its server at (PUBLIC_URL, or
 * the running engine's). The key is TOKEN_ENCRYPTION_KEY, else the development key the engine keeps
 * in TOKEN_DEV_KEY_FILE, read and never made here (src/app/bootstrap.ts makes it: without the file,
 * no engine with these settings has signed a link). Null when there is no key to sign with.
 */
export async function linkSigner(config: Config): Promise<LinkSigner | null> {
  const publicUrl = publicUrlOf(config);
  if (config.TOKEN_ENCRYPTION_KEY) return { vault: vaultFromConfig(config), publicUrl };
  const devKey = await readDevelopmentKey(config.TOKEN_DEV_KEY_FILE).catch(() => null);
  if (!devKey || !decodeKey(devKey)) return null;
  return { vault: developmentVault(config, devKey), publicUrl };
}
