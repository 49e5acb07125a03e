/** Merchant API keys: created once in clear, stored as SHA-256, looked up by hash, revocable. */
export {
  API_KEY_PREFIX,
  ApiKeyNameError,
  type ApiKeyScope,
  type AuthenticatedApiKey,
  authenticateApiKey,
  type CreatedApiKey,
  createApiKey,
  hashApiKey,
  revokeApiKey,
} from "./keys.js";
