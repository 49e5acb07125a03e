import type { IdFactory } from "../support/ids.js";
import { DEFAULT_MERCHANT_SETTINGS, GUID, type MerchantAccount, type MerchantSettings } from "./merchant.js";

export class DuplicateApiKeyError extends Error {}

export interface MerchantState {
  defaultApiKey: string;
  nextId: number;
  merchants: MerchantAccount[];
}

/** Merchant accounts by API key (GUIDs compare case-insensitively) and by id. */
export class MerchantStore {
  private readonly byKey = new Map<string, MerchantAccount>();
  private readonly byId = new Map<number, MerchantAccount>();
  private nextId = 1;
  private readonly defaultSettings: MerchantSettings;
  private defaultKey: string;

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
    this.defaultKey = (defaultApiKey ?? ids.guid()).toLowerCase();
    this.defaultSettings = { ...DEFAULT_MERCHANT_SETTINGS, ...defaultSettings };
    this.reset();
  }

  get defaultApiKey(): string {
    return this.defaultKey;
  }

  snapshot(): MerchantState {
    return { defaultApiKey: this.defaultKey, nextId: this.nextId, merchants: this.all() };
  }

  /** Takes over saved merchants, the default one included (a reset recreates it with this process's settings). */
  restore(state: MerchantState): void {
    this.byKey.clear();
    this.byId.clear();
    for (const merchant of state.merchants) {
      this.byKey.set(merchant.apiKey.toLowerCase(), merchant);
      this.byId.set(merchant.id, merchant);
    }
    if (!this.byKey.has(state.defaultApiKey.toLowerCase())) {
      throw new RangeError(`the default merchant ${state.defaultApiKey} is not among the merchants`);
    }
    this.defaultKey = state.defaultApiKey.toLowerCase();
    this.nextId = state.nextId;
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
