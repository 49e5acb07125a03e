import type { IdFactory } from "../support/ids.js";
import { DEFAULT_MERCHANT_SETTINGS, GUID, type MerchantAccount, type MerchantSettings } from "./merchant.js";

export class DuplicateApiKeyError extends Error {}

/** Merchant accounts by API key (GUIDs compare case-insensitively) and by id. */
export class MerchantStore {
  private readonly byKey = new Map<string, MerchantAccount>();
  private readonly byId = new Map<number, MerchantAccount>();
  private nextId = 1;
  private readonly defaultSettings: MerchantSettings;
  readonly defaultApiKey: string;

  constructor(
    private readonly ids: IdFactory,
    defaultApiKey: string | undefined,
    defaultSettings: Partial<MerchantSettings> = {},
  ) {
    if (defaultApiKey !== undefined && !GUID.test(defaultApiKey)) {
      throw new RangeError(
        `the default merchant's API key must be a GUID, got ${JSON.stringify(defaultApiKey)}`,
      );
    }
    this.defaultApiKey = (defaultApiKey ?? ids.guid()).toLowerCase();
    this.defaultSettings = { ...DEFAULT_MERCHANT_SETTINGS, ...defaultSettings };
    this.reset();
  }

  /** Forgets every merchant and recreates the default one with the same key and its starting settings. */
  reset(): void {
    this.byKey.clear();
    this.byId.clear();
    this.nextId = 1;
    this.create(
      { ...this.defaultSettings, currencies: [...this.defaultSettings.currencies] },
      this.defaultApiKey,
    );
  }

  create(settings: MerchantSettings, apiKey?: string): MerchantAccount {
    const key = (apiKey ?? this.ids.guid()).toLowerCase();
    if (this.byKey.has(key)) throw new DuplicateApiKeyError(`api_key ${key} is already in use`);
    const merchant: MerchantAccount = { ...settings, id: this.nextId++, apiKey: key };
    this.byKey.set(key, merchant);
    this.byId.set(merchant.id, merchant);
    return merchant;
  }

  find(apiKey: string): MerchantAccount | undefined {
    return this.byKey.get(apiKey.trim().toLowerCase());
  }

  byMerchantId(id: number): MerchantAccount | undefined {
    return this.byId.get(id);
  }

  get defaultMerchant(): MerchantAccount {
    return this.find(this.defaultApiKey)!;
  }

  update(merchant: MerchantAccount, patch: Partial<MerchantSettings>): MerchantAccount {
    for (const [field, value] of Object.entries(patch)) {
      if (value !== undefined) Object.assign(merchant, { [field]: value });
    }
    return merchant;
  }

  all(): MerchantAccount[] {
    return [...this.byId.values()];
  }
}
