export { developmentVault, readDevelopmentKey } from "./development-key.js";
export { isSealedText, openSealedText, sealedTextKeyId, sealText } from "./sealed-text.js";
export { hashSecret, isSecretShaped, newSecret, tokensMatch } from "./session-secrets.js";
export {
  createTokenVault,
  type SealedToken,
  type TokenVault,
  TokenVaultError,
  type TokenVaultKeys,
  vaultFromConfig,
} from "./token-vault.js";
