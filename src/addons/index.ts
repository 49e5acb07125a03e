/** Add-ons: recurring prices sold beside a plan, each on the subscription's period charge as its own line. */
export {
  ADDON_CODE,
  type AddonInput,
  AddonInputError,
  addonInputSchema,
  parseAddonInput,
} from "./addon-input.js";
export { type StoredAddon, toStoredAddon } from "./addon-record.js";
export { archiveAddon } from "./archive-addon.js";
export { createAddon } from "./create-addon.js";
export { AddonError, type AddonErrorCode } from "./errors.js";
export { getAddon } from "./get-addon.js";
export { type AddonPage, type ListAddonsOptions, listAddons } from "./list-addons.js";
export { type LiveAddon, liveAddons } from "./live-addons.js";
export { removeSubscriptionAddon } from "./remove-subscription-addon.js";
export {
  type SetSubscriptionAddonInput,
  type SetSubscriptionAddonResult,
  setSubscriptionAddon,
} from "./set-subscription-addon.js";
export { listSubscriptionAddons, type SubscriptionAddon } from "./subscription-addons.js";
