/** Merchant API keys: created once in clear, stored as SHA-256, looked up by hash, revocable. */
export {
  API_KEY_PREFIX,
  ApiKeyNameError,
  type AuthenticatedApiKey,
  authenticateApiKey,
  type CreatedApiKey,
  createApiKey,
  displayPrefixOf,
  hashApiKey,
  type ListedApiKey,
  listApiKeys,
  revokeApiKey,
} from "./keys.js";
export { ApiKeyOperationError, type ApiKeyScope, normaliseOperation, permits } from "./permissions.js";
