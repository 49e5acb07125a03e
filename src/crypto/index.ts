export {
  createTokenVault,
  type SealedToken,
  type TokenVault,
  TokenVaultError,
  type TokenVaultKeys,
  vaultFromConfig,
} from "./token-vault.js";
